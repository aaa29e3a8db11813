import { describe, expect, it } from "vitest";
import { describeGrowth, growth, MAX_GROWTH } from "../../../test-support/linear-growth.ts";
import { adaptText, truncate } from "../src/text/adapt.ts";
import { ELLIPSIS } from "../src/text/clean-cut.ts";
import { graphemes, measure } from "../src/text/measure.ts";
import { graphemeWeight } from "../src/text/x-weight.ts";

/*
 * X's weighted length. The expected weights are what twitter-text 3.1.0 (`parseTweet().weightedLength`)
 * gives for the same text, except where marked: there this compact rule counts more, never less.
 */

describe("X's weighted length", () => {
  it.each([
    ["hello world", 11],
    ["日本語のテキスト", 16],
    ["아녕하세요", 10],
    ["Привет мир", 10],
    ["café", 4],
    ["e\u0301", 1],
    ["“quoted” — dash…", 17],
    ["👍🏽 👨‍👩‍👧 🇫🇷", 8],
    ["https://example.com/a/very/long/path/that/goes/on/and/on?x=1", 23],
    ["x.co", 23],
    ["see example.com.", 28],
    ["http://t.co/abc, and https://x.com/y!", 53],
    ["https://localhost:8080/x", 24],
    ["example.community/path", 23],
    ["Node.js is great", 16],
    ["bob@example.com", 15],
    ["a.a.a.a", 7],
    ["#hashtag @mention $CASH", 23],
    // twitter-text: 10 ("html" is no domain ending); an unknown ending counts as a URL or its characters, whichever is more.
    ["index.html", 23],
    // twitter-text: 25 (the closing bracket belongs to the URL); here it is the sentence's.
    ["(https://en.wikipedia.org/wiki/Foo_(bar))", 26],
  ])("%j weighs %i", (text, weight) => {
    expect(measure(text, "weighted")).toBe(weight);
  });

  it("text below U+0300 (measured without segmenting) weighs what its graphemes weigh, CR LF included", () => {
    const below = Array.from({ length: 0x300 }, (_, c) => String.fromCharCode(c)).join(" ");
    for (const text of [below, "line one\r\nline two\r\n", "\r\r\n\n", "tab\there"]) {
      const byGrapheme = graphemes(text).reduce((sum, g) => sum + graphemeWeight(g), 0);
      expect(measure(text, "weighted")).toBe(byGrapheme);
    }
    expect(measure("line\r\nbreak", "weighted")).toBe(11);
    // One unit at U+0300 or above, and the text is segmented: the accent joins its letter.
    expect(measure(`${"a".repeat(20)}e\u0301`, "weighted")).toBe(21);
  });

  it("a post of 280 weighted fits X; CJK text is cut at 139 characters and the …", () => {
    expect(adaptText("a".repeat(280), "x", false)).toBe("a".repeat(280));
    const cut = adaptText("日".repeat(200), "x", false);
    expect(cut.endsWith(ELLIPSIS)).toBe(true);
    expect(measure(cut, "weighted")).toBeLessThanOrEqual(280);
    expect([...cut].length).toBe(140); // 139 × 2 + the … (2)
  });

  it("a long URL counts 23, so a caption with it is not cut", () => {
    const caption = `${"a".repeat(250)} https://example.com/${"p".repeat(200)}`;
    expect(measure(caption, "weighted")).toBe(274);
    expect(adaptText(caption, "x", false)).toBe(caption);
  });

  it("a cut never leaves more than X takes, whatever the URLs around the cut", () => {
    for (const text of [
      `${"word ".repeat(50)}https://averyveryveryverylongsubdomainname.example.com/path ${"x ".repeat(50)}`,
      `${"日".repeat(130)} example.com ${"b".repeat(30)} x.co`,
      `${"a.".repeat(200)}com`,
      `${"https://a.co ".repeat(30)}`,
    ]) {
      expect(measure(truncate(text, 280, "weighted"), "weighted")).toBeLessThanOrEqual(280);
    }
  });
});

describe("X's weighted length is linear in the text", () => {
  const SIZES = { small: 20_000, large: 40_000 };
  const repeatTo = (unit: string, n: number, prefix = "") =>
    prefix + unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
  // The shapes that make URL extraction rescan: dotted words, endless hosts and paths, many URLs.
  const SHAPES: Record<string, (n: number) => string> = {
    "dotted letters": (n) => repeatTo("a.", n),
    "dotted words with an unknown ending": (n) => `${repeatTo("ab.", n, "x ")}abc`,
    "a host that never ends": (n) => repeatTo("a", n, "https://"),
    "a path that never ends": (n) => repeatTo("a/", n, "https://example.com/"),
    "a URL in every word": (n) => repeatTo("https://a.co ", n),
    "punctuation the URL leaves": (n) => repeatTo("x.com.", n),
    "emoji and CJK": (n) => repeatTo("👨‍👩‍👧日", n),
  };

  it("measuring and cutting at 20k and 40k characters, every shape", () => {
    const slow: string[] = [];
    for (const [shape, make] of Object.entries(SHAPES)) {
      const texts = { small: make(SIZES.small), large: make(SIZES.large) };
      const measured = growth((size) => measure(texts[size], "weighted"));
      if (measured.ratio > MAX_GROWTH) slow.push(describeGrowth(`measure, ${shape}`, measured));
      const cut = growth((size) => truncate(texts[size], SIZES[size] / 2, "weighted"));
      if (cut.ratio > MAX_GROWTH) slow.push(describeGrowth(`truncate, ${shape}`, cut));
    }
    expect(slow).toEqual([]);
  }, 120_000);
});
