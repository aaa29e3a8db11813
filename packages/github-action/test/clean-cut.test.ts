import { describe, expect, it } from "vitest";
import { leadingLines, withoutDanglingEnd } from "../src/clean-cut.ts";

/** `text` as if it had been cut from something longer, at its end. */
const cut = (text: string) => withoutDanglingEnd(text, `${text.slice(0, -1)} and more`);

describe("a cut with …", () => {
  it("drops a list marker, separator or opening bracket left just before the …", () => {
    expect(cut("Fixed the parser\n•…")).toBe("Fixed the parser…");
    expect(cut("1. one\n2.…")).toBe("1. one…");
    expect(cut("Feature | Status |…")).toBe("Feature | Status…");
    expect(cut("Read the guide (…")).toBe("Read the guide…");
    expect(cut("Faster builds —…")).toBe("Faster builds…");
    expect(cut("fixed in #…")).toBe("fixed in…");
    expect(cut("a |\n• (…")).toBe("a…");
  });

  it("keeps words, punctuation that ends them, and text that was not cut", () => {
    expect(cut("Support for C++…")).toBe("Support for C++…");
    expect(cut("Version 2.…")).toBe("Version 2.…");
    expect(cut("Fixes:…")).toBe("Fixes:…");
    expect(cut("a list\n•")).toBe("a list\n•");
  });

  it("a URL cut in the middle goes, with the bracket before it; a whole one stays", () => {
    const notes = "as documented in Buffer (https://nodejs.org/docs/latest/api/buffer.html) now.";
    expect(withoutDanglingEnd("as documented in Buffer (https://nodejs.org/docs/…", notes)).toBe(
      "as documented in Buffer…",
    );
    const whole = "see https://example.com/guide and more";
    expect(withoutDanglingEnd("see https://example.com/guide…", whole)).toBe(
      "see https://example.com/guide…",
    );
  });

  it("nothing but a marker left is nothing", () => {
    expect(cut("•…")).toBe("");
  });
});

describe("whole lines", () => {
  const notes = [
    "Title",
    "Minor Changes",
    "• one",
    "  more about one",
    "• two",
    "",
    "Patch Changes",
    "• three",
  ];

  it("never end on a heading whose content was cut away, nested headings included", () => {
    expect(leadingLines(notes, 1)).toEqual([]);
    expect(leadingLines(notes, 2)).toEqual([]);
    expect(leadingLines(notes, 7)).toEqual(notes.slice(0, 6));
  });

  it("end on any list item or its indented lines", () => {
    expect(leadingLines(notes, 3)).toEqual(notes.slice(0, 3));
    expect(leadingLines(notes, 4)).toEqual(notes.slice(0, 4));
    expect(leadingLines(notes, 8)).toEqual(notes);
  });

  it("a paragraph followed by a blank line is whole", () => {
    expect(leadingLines(["A sentence.", "", "Fixes", "• one"], 1)).toEqual(["A sentence."]);
  });
});
