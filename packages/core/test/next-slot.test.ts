import { describe, expect, it } from "vitest";
import { hourOfWeek, nextSlot, type PublishedFigures, rankHoursOfWeek } from "../src/scheduler/next-slot.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 5, 15, 12, 0, 0);
const free = () => true;
let posts = 0;
/** Figures of `count` posts published at `published_at` (within its hour), each its own post. */
const figures = (
  count: number,
  published_at: number,
  reach: number,
  interactions: number,
): PublishedFigures[] =>
  Array.from({ length: count }, (_, i) => ({
    post_id: `post_${posts++}`,
    published_at: published_at + i * 60_000,
    reach,
    interactions,
  }));

describe("next optimal slot", () => {
  it("ranks hours of the week by engagement rate, ignoring figures older than 90 days or without reach", () => {
    const history = [
      ...figures(3, NOW - 2 * HOUR, 100, 1),
      ...figures(3, NOW - 5 * HOUR, 100, 10),
      ...figures(3, NOW - 91 * DAY, 100, 90),
      ...figures(3, NOW - 7 * HOUR, 0, 0),
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
    const history = [...figures(3, best, 10, 5), ...figures(3, second, 10, 2)];
    expect(nextSlot({ now: NOW, history, isFree: free })).toBe(best + 7 * DAY);
    const taken = new Set([0, 1, 2, 3].map((w) => best + (w + 1) * 7 * DAY));
    expect(nextSlot({ now: NOW, history, isFree: (t) => !taken.has(t) })).toBe(second + 7 * DAY);
  });

  it("never sooner than 5 minutes ahead, even for the best hour", () => {
    const history = figures(3, NOW - 7 * DAY + 3 * 60_000, 10, 5);
    // That hour of the week starts at NOW: too soon, so a week later.
    expect(nextSlot({ now: NOW, history, isFree: free })).toBe(NOW + 7 * DAY);
  });

  it("an hour counts as best only with figures from three published posts in it; fewer, and the grid decides", () => {
    const great = NOW - 26 * HOUR; // Sunday 10:00
    // One post with a great report, and two: not enough evidence.
    for (const history of [figures(1, great, 10, 9), figures(2, great, 10, 9)]) {
      expect(rankHoursOfWeek(history, NOW)).toEqual([]);
      expect(nextSlot({ now: NOW, history, isFree: free })).toBe(Date.UTC(2026, 5, 15, 17));
    }
    // The same post on two networks is still one post.
    const two = figures(2, great, 10, 9);
    const onTwoNetworks = [...two, { ...two[0]!, reach: 20 }];
    expect(rankHoursOfWeek(onTwoNetworks, NOW)).toEqual([]);
    expect(nextSlot({ now: NOW, history: figures(3, great, 10, 9), isFree: free })).toBe(great + 7 * DAY);
  });
});
