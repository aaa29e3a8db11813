import { describe, expect, it } from "vitest";
import { describeGrowth, growth, MAX_GROWTH } from "../../../test-support/linear-growth.ts";
import { composeCaption } from "../src/caption.ts";
import { parseBaseUrl } from "../src/inputs.ts";
import { releaseNotesToText } from "../src/release-notes/to-social-text.ts";
import { readRunContext } from "../src/run-context.ts";
import { cell } from "../src/summary-markdown.ts";
import { DEFAULT_TEMPLATE, parseTemplate } from "../src/template.ts";

/*
 * Release notes are user input, and so are the inputs and what a network answers: the work the Action
 * does on them must grow in proportion to their length. Each check times the same work at two sizes in
 * one run with the shared measurer (test-support/linear-growth.ts) and fails when doubling the input
 * more than roughly doubles the cost (a quadratic step quadruples it). The shapes are the ones that make
 * a careless pattern rescan a run: long runs of blanks, of line breaks with blanks around them, of
 * slashes, many small blocks.
 */

const repeatTo = (unit: string, length: number, prefix = "", suffix = "") =>
  prefix + unit.repeat(Math.ceil(length / unit.length)).slice(0, length) + suffix;

/** The shapes whose work grows faster than their input, each with its two timings. */
function slowShapes(
  shapes: Record<string, (n: number) => string>,
  sizes: [number, number],
  work: (text: string) => unknown,
) {
  const slow: string[] = [];
  for (const [shape, make] of Object.entries(shapes)) {
    const texts = { small: make(sizes[0]), large: make(sizes[1]) };
    const measured = growth((size) => work(texts[size]));
    if (measured.ratio > MAX_GROWTH) slow.push(describeGrowth(shape, measured));
  }
  return slow;
}

const NOTES: Record<string, (n: number) => string> = {
  "a run of spaces inside a line": (n) => repeatTo(" ", n, "a", "b"),
  "spaces and tabs": (n) => repeatTo(" \t", n, "a", "b"),
  // Lines of blanks alone: each is a blank line to Markdown, and the parser's work on a run of them
  // grew about 2.9× per doubling until the notes' blank lines were collapsed before parsing.
  "soft line breaks with blanks around them": (n) => repeatTo(" \n ", n, "a", "b"),
  "blank lines of tabs and spaces": (n) => repeatTo(" \t \n", n, "a", "b"),
  "soft line breaks between words, blanks around them": (n) => repeatTo("a \n ", n),
  "hard breaks": (n) => repeatTo("a  \n", n),
  "blanks at the end": (n) => repeatTo(" ", n, "a"),
  "many paragraphs": (n) => repeatTo("a\n\n", n),
  "many headings": (n) => repeatTo("# a\n", n),
  "list items": (n) => repeatTo("- a\n", n),
  mentions: (n) => repeatTo("@a ", n),
};

describe("the Action's work on user input is linear in its length", () => {
  it("release notes to social text, at 10k and 20k characters", () => {
    expect(slowShapes(NOTES, [10_000, 20_000], (text) => releaseNotesToText(text, { repo: "o/r" }))).toEqual(
      [],
    );
  }, 180_000);

  it("notes nested deeper than the parser can follow are posted as plain text, not a crash", () => {
    const text = releaseNotesToText(`${"- ".repeat(1200)}deep`);
    expect(text).toContain("deep");
  }, 60_000);

  // Both sizes are beyond every limit in play (facebook's 63,206): below a limit a caption is only
  // measured, beyond it also cut, and that step would read as growth.
  it("the caption around long notes, at 80k and 160k characters", () => {
    const template = parseTemplate(DEFAULT_TEMPLATE);
    const values = {
      repo: "o/r",
      owner: "o",
      repo_name: "r",
      tag: "v1",
      name: "v1",
      version: "1",
      url: "https://github.com/o/r/releases/tag/v1",
    };
    const shapes = {
      "one long line": (n: number) => repeatTo("word ", n),
      "many short lines": (n: number) => repeatTo("• a\n", n),
      "blanks before the end": (n: number) => repeatTo(" ", n, "a", "b"),
    };
    const slow = slowShapes(shapes, [80_000, 160_000], (notes) => {
      composeCaption({ template, values, notes, platforms: ["x", "reddit", "facebook"], hasMedia: false });
      composeCaption({
        template: parseTemplate("{body}\n{url}"),
        values,
        notes,
        platforms: ["facebook"],
        hasMedia: false,
      });
    });
    expect(slow).toEqual([]);
  }, 180_000);

  it("summary cells, base-url and GITHUB_API_URL, at 50k and 100k characters", () => {
    const shapes = {
      "blanks without a line break": (n: number) => repeatTo(" ", n, "a", "b"),
      "blanks around line breaks": (n: number) => repeatTo(" \n", n, "a", "b"),
    };
    expect(slowShapes(shapes, [50_000, 100_000], cell)).toEqual([]);
    const slashes = { "slashes not at the end": (n: number) => repeatTo("/", n, "https://h/", "x") };
    expect(slowShapes(slashes, [50_000, 100_000], parseBaseUrl)).toEqual([]);
    expect(slowShapes(slashes, [50_000, 100_000], (url) => readRunContext({ GITHUB_API_URL: url }))).toEqual(
      [],
    );
  }, 120_000);
});
