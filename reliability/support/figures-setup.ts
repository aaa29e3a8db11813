import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { addFigures, describeFigures, type Figures } from "./figures.ts";

/**
 * Global setup of the reliability suite: gives the test files a folder for their figures, and once
 * they have all run prints the totals with the store they ran on, e.g. `reliability (SQLite): 5210
 * requests tried, 31 faults injected, 1904 posts checked, lost = 0`. Each store's project prints its own.
 */
export default function setup(project: TestProject): () => void {
  const store =
    {
      "reliability-postgres": "PostgreSQL",
      "reliability-live": "SQLite, live keys to the networks' peers",
    }[project.name] ?? "SQLite";
  const dir = mkdtempSync(join(tmpdir(), "socialpub-reliability-figures-"));
  project.provide("figuresDir", dir);
  return () => {
    let total: Figures = { requests: 0, faults: 0, postsChecked: 0, lost: 0 };
    const lines: string[] = [];
    for (const file of readdirSync(dir).sort()) {
      const figures = JSON.parse(readFileSync(join(dir, file), "utf8")) as Figures;
      lines.push(`  ${file.replace(/\.json$/, "")}: ${describeFigures(figures)}`);
      total = addFigures(total, figures);
    }
    rmSync(dir, { recursive: true, force: true });
    if (lines.length === 0) return;
    process.stdout.write(`\n${lines.join("\n")}\nreliability (${store}): ${describeFigures(total)}\n`);
    if (total.lost > 0) process.exitCode = 1;
  };
}
