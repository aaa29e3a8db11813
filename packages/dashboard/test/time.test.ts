import { newId } from "@socialpub/core";
import { describe, expect, test } from "vitest";
import { formatDuration, formatRelative, formatShortTime, formatTime, timeFromId } from "../src/lib/time.ts";

describe("times", () => {
  test("a record's creation time is read from its ULID id", () => {
    const at = Date.UTC(2026, 5, 15, 12, 0, 5, 123);
    expect(timeFromId(newId("post", at))).toBe(at);
  });

  test("an id that is not prefix_ULID has no time", () => {
    expect(timeFromId("post_123")).toBeNull();
    expect(timeFromId("post_!!!!!!!!!!!!!!!!!!!!!!!!!!")).toBeNull();
  });

  test("instants are shown in UTC, unambiguously", () => {
    const at = Date.UTC(2026, 5, 15, 12, 0, 5);
    expect(formatTime(at)).toBe("2026-06-15 12:00:05 UTC");
    expect(formatShortTime(at)).toBe("2026-06-15 12:00");
    expect(formatShortTime(at, true)).toBe("2026-06-15 12:00:05");
  });

  test("relative times say in which direction", () => {
    const now = Date.UTC(2026, 5, 15, 12);
    expect(formatRelative(now + 5 * 60_000, now)).toBe("in 5 minutes");
    expect(formatRelative(now - 3 * 3_600_000, now)).toBe("3 hours ago");
    expect(formatRelative(now + 200, now)).toBe("now");
  });

  test("latency below a second is in ms, above in seconds", () => {
    expect(formatDuration(87.4)).toBe("87 ms");
    expect(formatDuration(1540)).toBe("1.5 s");
  });
});
