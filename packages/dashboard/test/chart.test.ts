import { describe, expect, test } from "vitest";
import { barLength, compactNumber, niceScale } from "../src/lib/chart.ts";

describe("niceScale ends the axis on a round number at or above the largest value", () => {
  test.each([
    [7, [0, 2, 4, 6, 8]],
    [1234, [0, 500, 1000, 1500]],
    [100, [0, 50, 100]],
    [0.37, [0, 0.1, 0.2, 0.3, 0.4]],
  ])("largest %d → ticks %j", (largest, ticks) => {
    expect(niceScale(largest).ticks).toEqual(ticks);
    expect(niceScale(largest).max).toBe(ticks[ticks.length - 1]);
  });

  test("nothing reported yet still draws an axis", () => {
    expect(niceScale(0)).toEqual({ max: 1, ticks: [0, 1] });
    expect(niceScale(Number.NaN)).toEqual({ max: 1, ticks: [0, 1] });
  });
});

describe("bars", () => {
  test("a bar's length is proportional to its value on the scale", () => {
    const scale = niceScale(1234);
    expect(barLength(750, scale, 300)).toBe(150);
    expect(barLength(0, scale, 300)).toBe(0);
    expect(barLength(1500, scale, 300)).toBe(300);
  });

  test("axis labels are short", () => {
    expect(compactNumber(12_400)).toBe("12.4K");
    expect(compactNumber(5)).toBe("5");
  });
});
