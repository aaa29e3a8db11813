/**
 * schedule_at as decisions.md defines it: an integer below 1e11 is Unix seconds, otherwise Unix
 * milliseconds; a string of digits counts as that integer; any other string must be ISO 8601 with a
 * date, a time and a zone offset. The due time may lie up to 60 s in the past (clock skew).
 */

export const SCHEDULE_SKEW_MS = 60_000;
/** Integers below this are seconds: 1e11 s is the year 5138, 1e11 ms is March 1973. */
const SECONDS_BELOW = 1e11;

export type ScheduleParse = { ok: true; at: number } | { ok: false; message: string };

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

const HOW =
  "Give Unix seconds, Unix milliseconds, or an ISO 8601 time with a zone offset, e.g. 2026-12-01T09:00:00Z.";

/** Parses a schedule time to Unix milliseconds, without judging whether it is in the future. */
export function parseScheduleTime(value: unknown, field = "schedule_at"): ScheduleParse {
  if (typeof value === "number") return fromInteger(value, field);
  if (typeof value !== "string")
    return { ok: false, message: `${field} must be a number or a string. ${HOW}` };
  const text = value.trim();
  if (/^\d+$/.test(text)) return fromInteger(Number(text), field);
  const m = ISO.exec(text);
  if (!m)
    return { ok: false, message: `${field} "${clip(value)}" is not a time this service understands. ${HOW}` };
  const [, y, mo, d, h, mi, s, frac, zulu, sign, oh, om] = m;
  if (!zulu && !sign) {
    return {
      ok: false,
      message: `${field} "${clip(value)}" has no zone offset, so its instant is ambiguous; add Z or an offset such as +02:00.`,
    };
  }
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s ?? 0);
  const offsetMinutes = sign ? (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    Number(oh ?? 0) > 23 ||
    Number(om ?? 0) > 59
  ) {
    return { ok: false, message: `${field} "${clip(value)}" is not a valid date and time. ${HOW}` };
  }
  const ms = Math.floor(Number(`0.${frac ?? "0"}`) * 1000);
  const at = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  return { ok: true, at };
}

/** Parses and checks that the time is not further in the past than the tolerated skew. */
export function parseScheduleAt(value: unknown, now: number, field = "schedule_at"): ScheduleParse {
  const parsed = parseScheduleTime(value, field);
  if (!parsed.ok) return parsed;
  if (parsed.at < now - SCHEDULE_SKEW_MS) {
    return {
      ok: false,
      message: `${field} ${new Date(parsed.at).toISOString()} is in the past; give a time in the future (up to 60 seconds of clock skew is tolerated).`,
    };
  }
  return parsed;
}

function fromInteger(n: number, field: string): ScheduleParse {
  if (!Number.isSafeInteger(n)) {
    return { ok: false, message: `${field} must be a whole number of seconds or milliseconds. ${HOW}` };
  }
  const at = n < SECONDS_BELOW ? n * 1000 : n;
  if (!Number.isFinite(new Date(at).getTime())) {
    return { ok: false, message: `${field} ${n} is too far in the future. ${HOW}` };
  }
  return { ok: true, at };
}

function clip(value: string): string {
  return value.length > 64 ? `${value.slice(0, 61)}...` : value;
}
