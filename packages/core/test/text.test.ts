import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NETWORK_IDS, NETWORK_RULES } from "../src/contract/networks.ts";
import { adaptText, truncate } from "../src/text/adapt.ts";
import { ELLIPSIS } from "../src/text/clean-cut.ts";
import { graphemes, measure } from "../src/text/measure.ts";

describe("measure", () => {
  it("characters are Unicode code points: an emoji with a skin tone counts 2, é as e + accent counts 2", () => {
    expect(measure("👍🏽", "characters")).toBe(2);
    expect(measure("e\u0301", "characters")).toBe(2);
    expect(measure("abc", "characters")).toBe(3);
  });

  it("graphemes are user-perceived characters: a family emoji counts 1", () => {
    expect(measure("👨‍👩‍👧", "graphemes")).toBe(1);
    expect(measure("e\u0301", "graphemes")).toBe(1);
    expect(measure("🇫🇷🇩🇪", "graphemes")).toBe(2);
  });
});

describe("truncate", () => {
  it("leaves text that fits unchanged", () => {
    expect(truncate("hello", 5, "characters")).toBe("hello");
  });

  it("ends with … and fits the limit, the … included", () => {
    expect(truncate("hello world again", 12, "characters")).toBe("hello world…");
    expect(measure(truncate("a".repeat(300), 280, "characters"), "characters")).toBe(280);
  });

  it("prefers the end of a word and drops the whitespace before …", () => {
    expect(truncate("one two three four", 12, "characters")).toBe("one two…");
    expect(truncate("one two, three", 10, "characters")).toBe("one two,…");
  });

  it("cuts inside a word when the last word boundary would keep less than half the room", () => {
    const url = `see https://example.com/${"x".repeat(100)}`;
    const out = truncate(url, 50, "characters");
    expect(out).toHaveLength(50);
    expect(out.startsWith("see https://example.com/")).toBe(true);
  });

  it("never splits a grapheme", () => {
    // The family emoji is five code points: with the … it needs 6 of the 7 left after "ab".
    expect(truncate("ab👨‍👩‍👧👨‍👩‍👧", 7, "characters")).toBe("ab…");
    expect(truncate("ab👨‍👩‍👧👨‍👩‍👧", 8, "characters")).toBe("ab👨‍👩‍👧…");
    expect(truncate("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", 2, "graphemes")).toBe("👨‍👩‍👧…");
  });

  it("words of languages without spaces are cut at a word boundary too", () => {
    const out = truncate("今日は良い天気ですね。明日も晴れるでしょう。", 12, "characters");
    expect(out.endsWith(ELLIPSIS)).toBe(true);
    expect(measure(out, "characters")).toBeLessThanOrEqual(12);
  });

  it("a limit of 1 leaves just …", () => {
    expect(truncate("hello", 1, "characters")).toBe("…");
  });

  it("property: the result always fits, keeps a whole-grapheme prefix, and is unchanged when the text fits", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            "a",
            " ",
            "é",
            "e\u0301",
            "👍🏽",
            "👨‍👩‍👧",
            "日",
            "\n",
            "-",
            " https://ex.co/p",
            "ex.com",
            ".",
          ),
          maxLength: 120,
        }),
        fc.integer({ min: 2, max: 60 }),
        fc.constantFrom("characters" as const, "graphemes" as const, "weighted" as const),
        (text, limit, unit) => {
          const out = truncate(text, limit, unit);
          expect(measure(out, unit)).toBeLessThanOrEqual(limit);
          if (measure(text, unit) <= limit) {
            expect(out).toBe(text);
            return;
          }
          expect(out.endsWith(ELLIPSIS)).toBe(true);
          const kept = out.slice(0, -ELLIPSIS.length);
          expect(text.startsWith(kept)).toBe(true);
          const prefix = graphemes(text).slice(0, graphemes(kept).length).join("");
          expect(prefix).toBe(kept);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("adaptText", () => {
  it("uses each network's limit and unit", () => {
    for (const id of NETWORK_IDS) {
      const rule = NETWORK_RULES[id];
      const text = "word ".repeat(rule.textLimit);
      const out = adaptText(text, id, false);
      expect(measure(out, rule.lengthUnit), id).toBeLessThanOrEqual(rule.textLimit);
      expect(measure(out, rule.lengthUnit), id).toBeGreaterThan(rule.textLimit - 6);
    }
  });

  it("telegram has 1024 with media and 4096 without", () => {
    const text = "a".repeat(5000);
    expect(adaptText(text, "telegram", true)).toHaveLength(1024);
    expect(adaptText(text, "telegram", false)).toHaveLength(4096);
  });
});
