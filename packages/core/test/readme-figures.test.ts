import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const readmePath = fileURLToPath(new URL("../README.md", import.meta.url));
const readme = readFileSync(readmePath, "utf8");

/** The text of a `### ` section of the README, up to the next heading. */
function section(heading: string): string {
  const start = readme.indexOf(`### ${heading}\n`);
  if (start < 0) throw new Error(`README has no "### ${heading}" section`);
  const end = readme.slice(start + 4).search(/\n#{2,3} /);
  return end < 0 ? readme.slice(start) : readme.slice(start, start + 4 + end);
}

// Measured figures live in docs/performance.md, which the benchmark report keeps current; a copy in
// the README would drift from it.
describe("README performance figures", () => {
  it("the Overhead section states no measured figure and points to docs/performance.md", () => {
    const overhead = section("Overhead");
    expect(overhead).not.toMatch(/\d\s*(?:µs|μs|ms|×|x\b|%)/);
    const link = /\]\((\.\.\/\.\.\/docs\/performance\.md)\)/.exec(overhead);
    expect(link).not.toBeNull();
    expect(existsSync(fileURLToPath(new URL(link![1]!, new URL("../README.md", import.meta.url))))).toBe(
      true,
    );
  });
});
