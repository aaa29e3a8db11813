import { adaptText, NETWORK_RULES } from "@socialpub/core";
import { describe, expect, test } from "vitest";
import { describeFit, lengthOf, textFit, unitName } from "../src/lib/text-length.ts";

describe("lengthOf counts as each network does", () => {
  test("characters are code points: an emoji with a skin tone counts 2", () => {
    expect(lengthOf("👍🏽", "characters")).toBe(2);
    expect(lengthOf("héllo", "characters")).toBe(5);
  });

  test("graphemes are what a reader sees: a family emoji counts 1", () => {
    expect(lengthOf("👨‍👩‍👧‍👦", "graphemes")).toBe(1);
    expect(lengthOf("e\u0301", "graphemes")).toBe(1);
    expect(lengthOf("e\u0301", "characters")).toBe(2);
  });

  test("X's weights: a URL counts 23 however long, CJK 2 a character", () => {
    const url = `https://example.com/${"a".repeat(100)}`;
    expect(lengthOf(`see ${url}`, "weighted")).toBe(4 + 23);
    expect(lengthOf("日本語", "weighted")).toBe(6);
  });

  test("each unit reads as a word a user knows: X's weights are characters, as X says", () => {
    expect(unitName("weighted")).toBe("characters");
    expect(unitName("characters")).toBe("characters");
    expect(unitName("graphemes")).toBe("graphemes");
  });
});

describe("textFit measures the adapted text against the network's limit", () => {
  test("a caption cut for X fits 280 characters as X weighs them and is marked as shortened", () => {
    const caption = "word ".repeat(100).trim();
    const text = adaptText(caption, "x", false);
    const fit = textFit(caption, text, NETWORK_RULES.x, false);
    expect(fit).toMatchObject({ limit: 280, unit: "weighted", captionLength: 499, truncated: true });
    expect(fit.length).toBeLessThanOrEqual(280);
    expect(describeFit(fit)).toBe(`${fit.length} / 280 characters`);
  });

  test("links do not push an X caption over its limit: each counts 23", () => {
    const caption = Array.from({ length: 10 }, (_, i) => `https://example.com/release/notes/${i}`).join(" ");
    const fit = textFit(caption, adaptText(caption, "x", false), NETWORK_RULES.x, false);
    expect(fit).toMatchObject({ length: 10 * 23 + 9, limit: 280, truncated: false });
  });

  test("a caption that fits is not marked as shortened", () => {
    const fit = textFit("Hello", "Hello", NETWORK_RULES.linkedin, false);
    expect(fit).toMatchObject({ length: 5, limit: 3000, truncated: false });
  });

  test("Bluesky is measured in graphemes", () => {
    const caption = "👨‍👩‍👧‍👦".repeat(301);
    const fit = textFit(caption, adaptText(caption, "bluesky", false), NETWORK_RULES.bluesky, false);
    expect(fit).toMatchObject({
      length: 300,
      limit: 300,
      unit: "graphemes",
      captionLength: 301,
      truncated: true,
    });
    expect(describeFit(fit)).toBe("300 / 300 graphemes");
  });

  test("Telegram's limit is 1024 when media is attached", () => {
    const caption = "a".repeat(2000);
    const withMedia = textFit(caption, adaptText(caption, "telegram", true), NETWORK_RULES.telegram, true);
    const without = textFit(caption, adaptText(caption, "telegram", false), NETWORK_RULES.telegram, false);
    expect(withMedia).toMatchObject({ limit: 1024, truncated: true });
    expect(without).toMatchObject({ limit: 4096, truncated: false, ratio: 2000 / 4096 });
  });
});
