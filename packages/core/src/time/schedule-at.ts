/**
 * schedule_at as decisions.md defines it: an integer below 1e11 is Unix seconds, otherwise Unix
 * milliseconds; a string of digits counts as that integer; any other string must be an ISO 8601
 * date-time with a zone offset, as RFC 3339 writes it (`2026-12-01T09:00:00Z`,
 * `2026-12-01T11:00:00.250+02:00`). The due time may lie up to 60 s in the past (clock skew), and at
 * most two years ahead: a time further off is a mistake (microseconds read as milliseconds land in the
 * year 58,000), never a plan.
 */
import { ScheduleDateTime } from "../contract/requests.ts";

export const SCHEDULE_SKEW_MS = 60_000;
/** How far ahead a post may be scheduled, in calendar years from now. */
export const SCHEDULE_MAX_YEARS_AHEAD = 2;
/** Integers below this are seconds: 1e11 s is the year 5138, 1e11 ms is March 1973. */
const SECONDS_BELOW = 1e11;

export type ScheduleParse = { ok: true; at: number } | { ok: false; message: string };

/**
 * The layout of an accepted date-time with any digits in its fields, only to tell an impossible date
 * or time (2027-02-29, 24:00) and a missing offset apart from a string that is no date-time at all.
 */
const DATE_TIME_LAYOUT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

const HOW =
  "Give Unix seconds, Unix milliseconds, or an ISO 8601 time with a zone offset, e.g. 2026-12-01T09:00:00Z.";

/** Parses a schedule time to Unix milliseconds, without judging whether it is in the future. */
export function parseScheduleTime(value: unknown, field = "schedule_at"): ScheduleParse {
  if (typeof value === "number") return fromInteger(value, field);
  if (typeof value !== "string")
    return { ok: false, message: `${field} must be a number or a string. ${HOW}` };
  const text = value.trim();
  if (/^\d+$/.test(text)) return fromInteger(Number(text), field);
  // Date.parse reads every string ScheduleDateTime accepts exactly (fractions past milliseconds dropped).
  if (ScheduleDateTime.safeParse(text).success) return { ok: true, at: Date.parse(text) };
  const layout = DATE_TIME_LAYOUT.exec(text);
  if (layout && !layout[1]) {
    return {
      ok: false,
      message: `${field} "${clip(value)}" has no zone offset, so its instant is ambiguous; add Z or an offset such as +02:00.`,
    };
  }
  if (layout) {
    return { ok: false, message: `${field} "${clip(value)}" is not a valid date and time. ${HOW}` };
  }
  return { ok: false, message: `${field} "${clip(value)}" is not a time this service understands. ${HOW}` };
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
  const latest = new Date(now);
  latest.setUTCFullYear(latest.getUTCFullYear() + SCHEDULE_MAX_YEARS_AHEAD);
  if (parsed.at > latest.getTime()) {
    return {
      ok: false,
      message: `${field} ${new Date(parsed.at).toISOString()} is more than two years ahead; it looks like microseconds or a typo. ${HOW}`,
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
