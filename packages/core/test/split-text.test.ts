import { describe, expect, it } from "vitest";
import { planParts } from "../src/posting/parts.ts";
import { splitText } from "../src/posting/split.ts";
import type { PostRecord } from "../src/store/types.ts";
import { measure } from "../src/text/measure.ts";

describe('split: "thread"', () => {
  it("a text that fits is one part, as given", () => {
    expect(splitText("Short.", 280, "weighted")).toEqual(["Short."]);
  });

  it("cuts at paragraphs first, then sentences, then words, numbering each part at its end", () => {
    const paragraph = "First paragraph, which is long enough to matter here. It has two sentences.";
    const text = `${paragraph}\n\n${paragraph}\n\n${paragraph}`;
    const parts = splitText(text, 120, "characters");
    expect(parts).toEqual([`${paragraph} 1/3`, `${paragraph} 2/3`, `${paragraph} 3/3`]);

    const sentences = "One sentence that runs a while. ".repeat(10).trim();
    for (const part of splitText(sentences, 100, "characters")) {
      expect(part).toMatch(/while\. \d+\/\d+$/);
      expect(measure(part, "characters")).toBeLessThanOrEqual(100);
    }
    const words = "word ".repeat(100).trim();
    for (const part of splitText(words, 50, "characters")) expect(part).toMatch(/^word( word)* \d+\/\d+$/);
  });

  it("every part fits the limit in the network's unit, emoji and URLs included, and nothing is lost", () => {
    const text = `${"👍🏽 great https://example.com/a/very/long/path/indeed ".repeat(40)}end`;
    for (const [unit, limit] of [
      ["weighted", 280],
      ["graphemes", 300],
    ] as const) {
      const parts = splitText(text, limit, unit);
      expect(parts.length).toBeGreaterThan(1);
      for (const part of parts) expect(measure(part, unit)).toBeLessThanOrEqual(limit);
      const rejoined = parts.map((p) => p.replace(/ \d+\/\d+$/, "")).join(" ");
      expect(rejoined.replace(/\s+/g, " ")).toBe(text.replace(/\s+/g, " "));
    }
  });

  it("the count gaining a digit leaves room for the longer numbers", () => {
    const parts = splitText("abcdefgh ".repeat(200).trim(), 30, "characters");
    expect(parts.length).toBeGreaterThan(9);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(30);
    expect(parts.at(-1)).toMatch(new RegExp(` ${parts.length}/${parts.length}$`));
  });
});

describe("a thread keeps to 25 parts", () => {
  const post = (caption: string, thread: string[] = []): PostRecord => ({
    id: "post_1",
    user_id: "usr_1",
    mode: "test",
    caption,
    platforms: ["bluesky"],
    status: "draft",
    media: null,
    rich: { split: "thread", ...(thread.length > 0 && { thread: thread.map((caption) => ({ caption })) }) },
    scheduled_at: null,
    published_at: null,
    created_at: 0,
  });
  const sentence = "Every release note gets its own sentence in this changelog. ";

  it("a text that would split into more is shortened so the whole thread has at most 25, numbered, and says so", () => {
    const { parts, notes } = planParts(post(sentence.repeat(400)), "bluesky");
    expect(parts).toHaveLength(25);
    expect(parts.at(-1)!.text).toMatch(/… 25\/25$/);
    for (const part of parts) expect(measure(part.text, "graphemes")).toBeLessThanOrEqual(300);
    expect(notes).toContain("text shortened so the thread keeps to 25 parts");
  });

  it("parts given after a long one keep their places", () => {
    const { parts } = planParts(post(sentence.repeat(400), ["Second part.", "Third part."]), "bluesky");
    expect(parts).toHaveLength(25);
    expect(parts.slice(-2).map((p) => p.text)).toEqual(["Second part.", "Third part."]);
  });
});
