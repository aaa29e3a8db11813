import { describe, expect, it } from "vitest";
import { parseScheduleAt, parseScheduleTime } from "../src/time/schedule-at.ts";

const NOW = Date.UTC(2026, 5, 15, 12, 0, 0);
const at = (value: unknown) => {
  const r = parseScheduleTime(value);
  if (!r.ok) throw new Error(r.message);
  return r.at;
};
const refusal = (value: unknown) => {
  const r = parseScheduleTime(value);
  if (r.ok) throw new Error(`accepted ${JSON.stringify(value)}`);
  return r.message;
};

describe("parseScheduleTime", () => {
  it("integers below 1e11 are seconds, the rest milliseconds", () => {
    expect(at(1_800_000_000)).toBe(1_800_000_000_000);
    expect(at(99_999_999_999)).toBe(99_999_999_999_000);
    expect(at(100_000_000_000)).toBe(100_000_000_000);
    expect(at(1_800_000_000_123)).toBe(1_800_000_000_123);
    expect(at(0)).toBe(0);
  });

  it("digit strings are the same integers; surrounding spaces are ignored", () => {
    expect(at("1800000000")).toBe(1_800_000_000_000);
    expect(at(" 1800000000123 ")).toBe(1_800_000_000_123);
  });

  it("ISO 8601 date-times with Z or ±hh:mm, as RFC 3339 writes them", () => {
    expect(at("2026-12-01T09:00:00Z")).toBe(Date.UTC(2026, 11, 1, 9));
    expect(at("2026-12-01T11:00:00+02:00")).toBe(Date.UTC(2026, 11, 1, 9));
    expect(at("2026-12-01T03:30:00-05:30")).toBe(Date.UTC(2026, 11, 1, 9));
    expect(at("2026-12-01T09:00:00+00:00")).toBe(Date.UTC(2026, 11, 1, 9));
    expect(at("2026-12-01T09:00:00-00:00")).toBe(Date.UTC(2026, 11, 1, 9));
    expect(at(" 2026-12-01T09:00:00Z ")).toBe(Date.UTC(2026, 11, 1, 9));
  });

  it("refuses the ISO 8601 forms outside that profile, saying what a time must be", () => {
    for (const value of [
      "2026-12-01 09:00:00+00:00",
      "2026-12-01t09:00:00Z",
      "2026-12-01T09:00:00z",
      "2026-12-01t09:00:00z",
      "2026-12-01T03:30:00-0530",
      "2026-12-01T09:00:00+02",
      "2026-12-01T09:00Z",
      "2026-12-01T09:00+01:00",
      "2026-12-01T09:00:00,5Z",
      "20261201T090000Z",
      "2026-W48-2T09:00:00Z",
    ]) {
      expect(refusal(value), value).toBe(
        `schedule_at "${value}" is not a time this service understands. Give Unix seconds, Unix milliseconds, or an ISO 8601 time with a zone offset, e.g. 2026-12-01T09:00:00Z.`,
      );
    }
  });

  it("fractional seconds keep milliseconds (digits past the third are dropped)", () => {
    expect(at("2026-12-01T09:00:00.5Z")).toBe(Date.UTC(2026, 11, 1, 9, 0, 0, 500));
    expect(at("2026-12-01T09:00:00.123456789Z")).toBe(Date.UTC(2026, 11, 1, 9, 0, 0, 123));
    expect(at("2026-12-01T11:00:00.999+02:00")).toBe(Date.UTC(2026, 11, 1, 9, 0, 0, 999));
  });

  it("29 February only in leap years", () => {
    expect(at("2028-02-29T00:00:00Z")).toBe(Date.UTC(2028, 1, 29));
    expect(refusal("2027-02-29T00:00:00Z")).toMatch(/not a valid date and time/);
  });

  it("refuses times without an offset, impossible dates and other shapes", () => {
    expect(refusal("2026-12-01T09:00:00")).toBe(
      'schedule_at "2026-12-01T09:00:00" has no zone offset, so its instant is ambiguous; add Z or an offset such as +02:00.',
    );
    expect(refusal("2026-12-01T09:00:00.250")).toMatch(/has no zone offset/);
    for (const value of ["2026-12-01T24:00:00Z", "2026-04-31T09:00:00Z", "2026-12-01T09:00:00+24:00"]) {
      expect(refusal(value), value).toMatch(/is not a valid date and time/);
    }
    for (const value of [
      "2026-12-01",
      "2026-13-01T00:00:00Z",
      "2026-12-01T24:00:00Z",
      "2026-12-01T09:60:00Z",
      "2026-12-01T09:00:00+25:00",
      "next tuesday",
      "1.5",
      "-5",
      "",
      "0x10",
    ]) {
      expect(() => at(value), value).toThrow(/schedule_at/);
    }
  });

  it("refuses non-integers, unsafe integers, booleans, objects and null", () => {
    for (const value of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, true, {}, [], null, undefined]) {
      expect(() => at(value), String(value)).toThrow(/schedule_at/);
    }
  });
});

describe("parseScheduleAt (two years ahead at most)", () => {
  it("refuses microseconds, which read as milliseconds land tens of thousands of years ahead", () => {
    const micro = parseScheduleAt(NOW * 1000, NOW);
    expect(micro.ok).toBe(false);
    expect(!micro.ok && micro.message).toMatch(
      /^schedule_at \+\d{6}-.* is more than two years ahead; it looks like microseconds or a typo\. Give Unix seconds/,
    );
    expect(parseScheduleAt(String(NOW * 1000), NOW).ok).toBe(false);
  });

  it("accepts exactly two calendar years ahead and refuses a millisecond more, in every form", () => {
    const limit = new Date(NOW);
    limit.setUTCFullYear(limit.getUTCFullYear() + 2);
    expect(parseScheduleAt(limit.getTime(), NOW)).toEqual({ ok: true, at: limit.getTime() });
    expect(parseScheduleAt(limit.getTime() + 1, NOW).ok).toBe(false);
    expect(parseScheduleAt(limit.toISOString(), NOW).ok).toBe(true);
    const typo = parseScheduleAt("2226-06-15T12:00:00Z", NOW);
    expect(!typo.ok && typo.message).toBe(
      "schedule_at 2226-06-15T12:00:00.000Z is more than two years ahead; it looks like microseconds or a typo. Give Unix seconds, Unix milliseconds, or an ISO 8601 time with a zone offset, e.g. 2026-12-01T09:00:00Z.",
    );
    expect(parseScheduleAt(NOW + 365 * 86_400_000, NOW, "at").ok).toBe(true);
  });
});

describe("parseScheduleAt (the 60-second skew)", () => {
  it("accepts a due time up to 60 s in the past and refuses one further back", () => {
    expect(parseScheduleAt(NOW - 60_000, NOW)).toEqual({ ok: true, at: NOW - 60_000 });
    expect(parseScheduleAt(NOW + 1, NOW)).toEqual({ ok: true, at: NOW + 1 });
    const refused = parseScheduleAt(NOW - 60_001, NOW);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.message).toBe(
      "schedule_at 2026-06-15T11:58:59.999Z is in the past; give a time in the future (up to 60 seconds of clock skew is tolerated).",
    );
  });

  it("seconds are compared as whole seconds: 61 s ago is refused, 60 s ago accepted", () => {
    expect(parseScheduleAt(NOW / 1000 - 60, NOW).ok).toBe(true);
    expect(parseScheduleAt(NOW / 1000 - 61, NOW).ok).toBe(false);
  });
});
