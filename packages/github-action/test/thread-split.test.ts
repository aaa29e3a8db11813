import { measure, splitText } from "@socialpub/core";
import { describe, expect, it } from "vitest";
import { xParts } from "../src/direct/x-direct.ts";

/** The parts without their numbers, joined: the words of the text, in order, none lost. */
const words = (parts: readonly string[]) =>
  parts
    .map((part) => part.replace(/ \d+\/\d+$/, ""))
    .join(" ")
    .split(/\s+/);

describe("long-notes: thread for X in direct mode", () => {
  it("a text that fits is one part, as given; X's own limit applies otherwise (shorten)", () => {
    expect(splitText("App 1.2 is out", 280, "weighted", 25)).toEqual(["App 1.2 is out"]);
    const long = `${"word ".repeat(100)}end`;
    expect(xParts({ caption: long }, false)).toHaveLength(1);
    expect(measure(xParts({ caption: long }, false)[0]!, "weighted")).toBeLessThanOrEqual(280);
  });

  it("cuts at paragraphs, then sentences, then words; every part fits and ends with its number", () => {
    const paragraph = (n: number) =>
      `Paragraph ${n}. ${"This sentence says what changed in the release. ".repeat(3).trim()}`;
    const text = [1, 2, 3, 4, 5, 6].map(paragraph).join("\n\n");
    const parts = xParts({ caption: text, split: "thread" }, false);
    expect(parts.length).toBeGreaterThan(2);
    for (const [i, part] of parts.entries()) {
      expect(measure(part, "weighted")).toBeLessThanOrEqual(280);
      expect(part.endsWith(` ${i + 1}/${parts.length}`), part).toBe(true);
      // Each part starts a paragraph or a sentence, never in the middle of one.
      expect(part, part).toMatch(/^(Paragraph|This)/);
    }
    expect(words(parts)).toEqual(text.split(/\s+/));
  });

  it("a run of words without sentences is cut between words; X weighs a link as 23", () => {
    const link = `https://github.com/octo/app/releases/tag/v1.0.0?${"q".repeat(200)}`;
    const text = `${"lorem ipsum ".repeat(60)}${link} ${"dolor ".repeat(40)}`.trim();
    const parts = splitText(text, 280, "weighted", 25);
    for (const part of parts) expect(measure(part, "weighted")).toBeLessThanOrEqual(280);
    expect(words(parts)).toEqual(text.split(/\s+/));
    expect(parts.some((part) => part.includes(link))).toBe(true);
  });

  it("a thread keeps to 25 parts: what would need more ends, shortened, in the 25th", () => {
    const text = "Another sentence about the release. ".repeat(400).trim();
    const parts = splitText(text, 280, "weighted", 25);
    expect(parts).toHaveLength(25);
    expect(parts[24]!).toMatch(/… 25\/25$/);
    for (const part of parts) expect(measure(part, "weighted")).toBeLessThanOrEqual(280);
  });
});
