// Turns what n8n hands a date-time parameter into one unambiguous instant. The service refuses a time
// without a zone offset (its instant would be a guess), but n8n's date picker produces exactly that —
// "2026-12-01T09:00:00", meant in the workflow's time zone — so the node resolves it here.

// Date, time, optional fraction, optional zone: "2026-12-01T09:00", "2026-12-01 09:00:00.5+01:00".
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export type ScheduleResult = { ok: true; at: number } | { ok: false; reason: string };

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const field = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const wallClock = Date.UTC(
    field("year"),
    field("month") - 1,
    field("day"),
    field("hour"),
    field("minute"),
    field("second"),
  );
  return wallClock - Math.floor(instant / 1000) * 1000;
}

/** The instant at which `timeZone`'s wall clock shows the given fields (read as if they were UTC). */
function wallClockToInstant(wallClock: number, timeZone: string): number {
  const first = wallClock - zoneOffset(wallClock, timeZone);
  // A second pass settles times near a daylight-saving change, where the first guess used the wrong offset.
  return wallClock - zoneOffset(first, timeZone);
}

function fromNumber(value: number): ScheduleResult {
  if (!Number.isSafeInteger(value) || value < 0) {
    return {
      ok: false,
      reason: `${value} is not a Unix timestamp (a whole number of seconds or milliseconds)`,
    };
  }
  // The contract's rule: below 1e11 is seconds, otherwise milliseconds.
  return { ok: true, at: value < 1e11 ? value * 1000 : value };
}

/** Whether the fields name a real calendar day and time (Date.UTC would roll 30 February over). */
function isRealDateTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
) {
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  );
}

function zoneOffsetOf(designator: string): number {
  if (designator.toUpperCase() === "Z") return 0;
  const sign = designator.startsWith("-") ? -1 : 1;
  const digits = designator.slice(1).replace(":", "");
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
}

function fromString(text: string, timeZone: string): ScheduleResult {
  const value = text.trim();
  if (value === "") return { ok: false, reason: "the schedule time is empty" };
  if (/^\d+$/.test(value)) return fromNumber(Number(value));
  const match = ISO.exec(value);
  if (!match) {
    return {
      ok: false,
      reason: `"${value}" is not a date and time: use ISO 8601 such as 2026-12-01T09:00:00Z, or pick one in the date picker`,
    };
  }
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? "0")) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isRealDateTime(year, month, day, hour, minute, second)) {
    return { ok: false, reason: `"${value}" is not a valid date` };
  }
  const millis = Number((match[7] ?? "0").padEnd(3, "0"));
  const wallClock = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const zone = match[8];
  if (zone) return { ok: true, at: wallClock - zoneOffsetOf(zone) };
  try {
    return { ok: true, at: wallClockToInstant(wallClock, timeZone) };
  } catch {
    return { ok: false, reason: `the workflow's time zone "${timeZone}" is unknown` };
  }
}

/**
 * Unix milliseconds for a schedule parameter: a Luxon DateTime or Date from an expression, a Unix
 * timestamp, an ISO 8601 string with an offset, or one without (read in `timeZone`).
 */
export function resolveScheduleAt(value: unknown, timeZone: string): ScheduleResult {
  if (typeof value === "number") return fromNumber(value);
  if (typeof value === "string") return fromString(value, timeZone);
  if (value instanceof Date) {
    const at = value.getTime();
    return Number.isNaN(at) ? { ok: false, reason: "the date is invalid" } : { ok: true, at };
  }
  const luxon = value as { toMillis?: () => number; isValid?: boolean } | null;
  if (luxon && typeof luxon.toMillis === "function") {
    return luxon.isValid === false
      ? { ok: false, reason: "the date is invalid" }
      : { ok: true, at: luxon.toMillis() };
  }
  return { ok: false, reason: "the schedule time must be a date and time" };
}
