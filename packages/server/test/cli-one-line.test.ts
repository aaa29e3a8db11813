import { describe, expect, it } from "vitest";
import { describeGrowth, growth, MAX_GROWTH } from "../../../test-support/linear-growth.ts";
import { oneLine } from "../src/cli/one-line.ts";
import { buildProgram } from "../src/cli/program.ts";

/*
 * The CLI prints every error on one line, and an error can quote what the user typed. Joining the lines
 * must cost in proportion to the text: a long run of spaces with no line break is the shape that made
 * the regular expression `\s*\n\s*` rescan the run from each of its characters.
 */

const SIZES = { small: 10_000, large: 20_000 };

/** Writes `text` the way the `start` command writes an error, and returns what it wrote. */
function writtenError(text: string): string {
  const start = buildProgram().commands.find((command) => command.name() === "start")!;
  let written = "";
  start.configureOutput().outputError!(text, (line) => {
    written += line;
  });
  return written;
}

describe("an error on one line", () => {
  it("joins lines and keeps what is on them", () => {
    expect(oneLine("error: unknown option '--prot'\n(Did you mean --port?)\n")).toBe(
      "error: unknown option '--prot' (Did you mean --port?)",
    );
    expect(oneLine("a \t\n \n  b  c\r\n")).toBe("a b  c");
    expect(oneLine("\n  x")).toBe(" x");
    expect(oneLine("")).toBe("");
  });

  it("costs in proportion to the text, for runs of spaces with and without line breaks", () => {
    const slow: string[] = [];
    for (const [shape, make] of Object.entries({
      "spaces inside the text": (n: number) => `a${" ".repeat(n)}b`,
      "spaces and line breaks": (n: number) => `a${" \n".repeat(n / 2)}b`,
    })) {
      const texts = { small: make(SIZES.small), large: make(SIZES.large) };
      const measured = growth((size) => oneLine(texts[size]));
      if (measured.ratio > MAX_GROWTH) slow.push(describeGrowth(shape, measured));
    }
    expect(slow).toEqual([]);
  }, 120_000);

  it("the CLI's error output for a message that quotes a long run of spaces", () => {
    const texts = {
      small: `error: unknown option '--x${" ".repeat(SIZES.small)}y'\n`,
      large: `error: unknown option '--x${" ".repeat(SIZES.large)}y'\n`,
    };
    expect(writtenError("error: one\n  two\n")).toBe("error: one two\n");
    const measured = growth((size) => writtenError(texts[size]));
    expect(measured.ratio, describeGrowth("error output", measured)).toBeLessThanOrEqual(MAX_GROWTH);
  }, 120_000);
});
