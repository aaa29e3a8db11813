import { describe, expect, it } from "vitest";
import { resolveScheduleAt } from "../nodes/shared/schedule.ts";

const at = (value: unknown, zone = "UTC") => resolveScheduleAt(value, zone);

describe("Schedule At", () => {
  it("reads a date-time without offset in the workflow's time zone, daylight saving included", () => {
    expect(at("2026-07-01T09:30:00", "Europe/Berlin")).toEqual({
      ok: true,
      at: Date.parse("2026-07-01T07:30:00Z"),
    });
    expect(at("2026-01-15T09:30:00", "Europe/Berlin")).toEqual({
      ok: true,
      at: Date.parse("2026-01-15T08:30:00Z"),
    });
    expect(at("2026-03-07T12:00:00", "America/New_York")).toEqual({
      ok: true,
      at: Date.parse("2026-03-07T17:00:00Z"),
    });
    expect(at("2026-03-08T12:00:00", "America/New_York")).toEqual({
      ok: true,
      at: Date.parse("2026-03-08T16:00:00Z"),
    });
    expect(at("2026-07-01 09:30", "Asia/Kolkata")).toEqual({
      ok: true,
      at: Date.parse("2026-07-01T04:00:00Z"),
    });
    expect(at("2026-07-01T09:30:00.250", "UTC")).toEqual({
      ok: true,
      at: Date.parse("2026-07-01T09:30:00.250Z"),
    });
  });

  it("keeps an ISO time with an offset as that exact instant, whatever the zone", () => {
    expect(at("2026-07-01T09:30:00+02:00", "America/New_York")).toEqual({
      ok: true,
      at: Date.parse("2026-07-01T07:30:00Z"),
    });
    expect(at("2026-07-01T09:30:00Z", "Asia/Tokyo")).toEqual({
      ok: true,
      at: Date.parse("2026-07-01T09:30:00Z"),
    });
    expect(at("2026-07-01T09:30:00+0530")).toEqual({ ok: true, at: Date.parse("2026-07-01T04:00:00Z") });
    expect(at("2026-07-01T09:30:00.5-03:00")).toEqual({
      ok: true,
      at: Date.parse("2026-07-01T12:30:00.500Z"),
    });
  });

  it("reads Unix timestamps as the contract does: below 1e11 seconds, else milliseconds", () => {
    expect(at(1_800_000_000)).toEqual({ ok: true, at: 1_800_000_000_000 });
    expect(at(1_800_000_000_123)).toEqual({ ok: true, at: 1_800_000_000_123 });
    expect(at("1800000000")).toEqual({ ok: true, at: 1_800_000_000_000 });
  });

  it("takes a Date or a Luxon DateTime from an expression", () => {
    expect(at(new Date("2026-07-01T09:30:00Z"))).toEqual({
      ok: true,
      at: Date.parse("2026-07-01T09:30:00Z"),
    });
    const luxonLike = { toMillis: () => 1_800_000_000_000, isValid: true };
    expect(at(luxonLike)).toEqual({ ok: true, at: 1_800_000_000_000 });
    expect(at({ toMillis: () => Number.NaN, isValid: false })).toEqual({
      ok: false,
      reason: "the date is invalid",
    });
  });

  it("explains what is wrong with anything else", () => {
    expect(at("")).toEqual({ ok: false, reason: "the schedule time is empty" });
    expect(at("tomorrow")).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"tomorrow" is not a date and time'),
    });
    expect(at(1.5)).toMatchObject({ ok: false, reason: expect.stringContaining("not a Unix timestamp") });
    expect(at(true)).toEqual({ ok: false, reason: "the schedule time must be a date and time" });
    expect(at("2026-02-30T10:00:00Z")).toEqual({
      ok: false,
      reason: '"2026-02-30T10:00:00Z" is not a valid date',
    });
    expect(at("2026-07-01T24:00:00")).toMatchObject({ ok: false });
    expect(at("2026-07-01T09:30:00", "Mars/Olympus")).toEqual({
      ok: false,
      reason: 'the workflow\'s time zone "Mars/Olympus" is unknown',
    });
  });
});
