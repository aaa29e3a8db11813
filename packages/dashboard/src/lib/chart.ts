/** A value axis that starts at 0 and ends on a round number at or above the largest value. */
export interface Scale {
  max: number;
  ticks: number[];
}

/** 0 → [0, 1]; 7 → [0, 2, 4, 6, 8]; 1234 → [0, 500, 1000, 1500]; 0.37 → [0, 0.1, …, 0.4] */
export function niceScale(largest: number, targetTicks = 4): Scale {
  if (!(largest > 0) || !Number.isFinite(largest)) return { max: 1, ticks: [0, 1] };
  const rough = largest / targetTicks;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? 10 * magnitude;
  const count = Math.ceil(largest / step - 1e-9);
  const ticks = Array.from({ length: count + 1 }, (_, i) => Number((i * step).toPrecision(12)));
  return { max: ticks[ticks.length - 1]!, ticks };
}

/** Width of a bar, in the same units as `width`: proportional to value / scale.max, never negative. */
export function barLength(value: number, scale: Scale, width: number): number {
  return Math.max(0, Math.min(width, (value / scale.max) * width));
}

/** "1.2K", "3.4M": short numbers for an axis; full numbers go in the table beside the chart. */
export function compactNumber(value: number): string {
  return new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 }).format(value);
}
