import { mkdirSync, writeFileSync } from "node:fs";
import { describeMachine, type Machine } from "./machine.ts";
import type { BenchOptions } from "./options.ts";

/** One line of the results table: a figure, what it is compared with, and the goal it is held to. */
export interface ResultRow {
  /** What was measured, as docs/performance.md names it. */
  what: string;
  figure: number;
  unit: string;
  /** The figure it is compared with, measured in the same run; null when the goal is absolute. */
  baseline: { what: string; figure: number; unit: string } | null;
  /** figure ÷ baseline (or as the goal defines it); null without a baseline. */
  ratio: number | null;
  /** How the ratio reads: "percent" (47 %) or "times" (1.12×). */
  ratio_as: "percent" | "times";
  goal: string;
  /** Whether the goal was met; null for a figure measured to be reported, with no goal of its own. */
  met: boolean | null;
}

export interface BenchResult {
  benchmark: string;
  date: string;
  quick: boolean;
  command: string;
  machine: Machine;
  rows: ResultRow[];
  /** Everything else measured: rounds, percentiles, samples. */
  details: unknown;
}

export const RESULTS_DIR = new URL("../results/", import.meta.url);

/** Where a benchmark's result goes: the committed latest one, or a scratch one for --quick runs. */
export function resultFile(name: string, quick: boolean): URL {
  return new URL(quick ? `quick/${name}.json` : `${name}.json`, RESULTS_DIR);
}

export function formatRatio(row: Pick<ResultRow, "ratio" | "ratio_as">): string {
  if (row.ratio === null) return "—";
  return row.ratio_as === "percent" ? `${(row.ratio * 100).toFixed(1)} %` : `${row.ratio.toFixed(2)}×`;
}

export function formatFigure(figure: number, unit: string): string {
  const digits = Math.abs(figure) >= 100 ? 0 : Math.abs(figure) >= 10 ? 1 : 2;
  const text = figure.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return `${text} ${unit}`;
}

/** Prints the rows and writes the result (machine, command, rows, details) as JSON. */
export function report(
  name: string,
  options: BenchOptions,
  rows: ResultRow[],
  details: unknown,
  machine: Machine = describeMachine(),
): BenchResult {
  const result: BenchResult = {
    benchmark: name,
    date: new Date().toISOString(),
    quick: options.quick,
    command: `pnpm bench ${name}${options.quick ? " --quick" : ""}`,
    machine,
    rows,
    details,
  };
  for (const row of rows) {
    const against = row.baseline
      ? ` vs ${row.baseline.what} ${formatFigure(row.baseline.figure, row.baseline.unit)} = ${formatRatio(row)}`
      : "";
    console.log(
      `  ${row.what}: ${formatFigure(row.figure, row.unit)}${against}${row.met === null ? "" : ` (goal ${row.goal}: ${row.met ? "met" : "MISSED"})`}`,
    );
  }
  const file = resultFile(name, options.quick);
  mkdirSync(new URL(".", file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`  result written to ${file.pathname}`);
  return result;
}

export const round = (value: number, digits = 2): number => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
};
