import { describe, expect, it } from "vitest";
import { hourOfWeek, nextSlot, rankHoursOfWeek } from "../src/scheduler/next-slot.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 5, 15, 12, 0, 0);
const free = () => true;

describe("next optimal slot", () => {
  it("ranks hours of the week by engagement rate, ignoring figures older than 90 days or without reach", () => {
    const history = [
      { published_at: NOW - 2 * HOUR, reach: 100, interactions: 1 },
      { published_at: NOW - 5 * HOUR, reach: 100, interactions: 10 },
      { published_at: NOW - 91 * DAY, reach: 100, interactions: 90 },
      { published_at: NOW - 7 * HOUR, reach: 0, interactions: 0 },
    ];
    expect(rankHoursOfWeek(history, NOW)).toEqual([hourOfWeek(NOW - 5 * HOUR), hourOfWeek(NOW - 2 * HOUR)]);
  });

  it("without history: the first grid time (09:00, 12:00, 17:00 UTC) at least 5 minutes ahead", () => {
    expect(nextSlot({ now: NOW, history: [], isFree: free })).toBe(Date.UTC(2026, 5, 15, 17));
    expect(nextSlot({ now: Date.UTC(2026, 5, 15, 8, 55), history: [], isFree: free })).toBe(
      Date.UTC(2026, 5, 15, 9),
    );
    expect(nextSlot({ now: Date.UTC(2026, 5, 15, 8, 56), history: [], isFree: free })).toBe(
      Date.UTC(2026, 5, 15, 12),
    );
    expect(nextSlot({ now: Date.UTC(2026, 5, 15, 18), history: [], isFree: free })).toBe(
      Date.UTC(2026, 5, 16, 9),
    );
  });

  it("skips taken slots", () => {
    const taken = new Set([Date.UTC(2026, 5, 15, 17), Date.UTC(2026, 5, 16, 9)]);
    expect(nextSlot({ now: NOW, history: [], isFree: (t) => !taken.has(t) })).toBe(Date.UTC(2026, 5, 16, 12));
  });

  it("with history: the best hour's next occurrence; when its next weeks are taken, the next best hour", () => {
    const best = NOW - 26 * HOUR; // Sunday 10:00
    const second = NOW - 3 * HOUR; // Monday 09:00
    const history = [
      { published_at: best, reach: 10, interactions: 5 },
      { published_at: second, reach: 10, interactions: 2 },
    ];
    expect(nextSlot({ now: NOW, history, isFree: free })).toBe(best + 7 * DAY);
    const taken = new Set([0, 1, 2, 3].map((w) => best + (w + 1) * 7 * DAY));
    expect(nextSlot({ now: NOW, history, isFree: (t) => !taken.has(t) })).toBe(second + 7 * DAY);
  });

  it("never sooner than 5 minutes ahead, even for the best hour", () => {
    const history = [{ published_at: NOW - 7 * DAY + 3 * 60_000, reach: 10, interactions: 5 }];
    // That hour of the week starts at NOW: too soon, so a week later.
    expect(nextSlot({ now: NOW, history, isFree: free })).toBe(NOW + 7 * DAY);
  });
});
