import { describe, expect, it } from "vitest";
import { truncate } from "../src/text/adapt.ts";
import { withoutDanglingEnd } from "../src/text/clean-cut.ts";

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

describe("truncate leaves nothing dangling at its cut", () => {
  it("a list cut on x ends on the last whole item, not on a bullet", () => {
    const notes = `Release 2.0\n${Array.from({ length: 40 }, (_, i) => `• change number ${i}`).join("\n")}`;
    for (let limit = 20; limit <= 280; limit++) {
      const cut = truncate(notes, limit, "characters");
      expect(cut.length, `limit ${limit}`).toBeLessThanOrEqual(limit);
      expect(cut, `limit ${limit}`).not.toMatch(/[•|(\-—]\s*…$/);
    }
  });

  it("a URL cut in the middle goes with its bracket", () => {
    const text =
      "Everything that changed in this release is in the guide (https://example.com/a/very/long/path) now.";
    expect(truncate(text, 70, "characters")).toBe("Everything that changed in this release is in the guide…");
  });

  it("a long URL alone is still cut inside rather than taken away with most of the text", () => {
    const out = truncate(`see https://example.com/${"x".repeat(100)}`, 50, "characters");
    expect(out).toHaveLength(50);
  });

  it("a text that is nothing but markers keeps its plain cut rather than nothing", () => {
    expect(truncate("• • • • • • • • • •", 6, "characters")).toBe("• • •…");
  });
});
