import { adaptText, measure, type NetworkId } from "@socialpub/core";
import { describe, expect, it } from "vitest";
import { composeCaption } from "../src/caption.ts";
import { DEFAULT_TEMPLATE, parseTemplate } from "../src/template.ts";

const URL_ = "https://github.com/octo/app/releases/tag/v2.1.0";
const values = {
  repo: "octo/app",
  owner: "octo",
  repo_name: "app",
  tag: "v2.1.0",
  name: "v2.1.0",
  version: "2.1.0",
  url: URL_,
};

const notesOf = (lines: number) =>
  Array.from({ length: lines }, (_, i) => `• Change number ${i + 1} makes the app a little better`).join(
    "\n",
  );

function compose(template: string, notes: string, platforms: NetworkId[], hasMedia = false) {
  return composeCaption({ template: parseTemplate(template), values, notes, platforms, hasMedia });
}

describe("caption", () => {
  it("a caption that fits every network is the template filled in, unchanged", () => {
    const caption = compose(DEFAULT_TEMPLATE, notesOf(2), ["x", "linkedin"]);
    expect(caption).toEqual({
      text: `octo/app v2.1.0\n${URL_}\n\n${notesOf(2)}`,
      notesShortened: false,
      warnings: [],
    });
  });

  it("notes last: each network keeps what it can hold, and the shortest still shows title and URL", () => {
    const notes = notesOf(40);
    const caption = compose(DEFAULT_TEMPLATE, notes, ["x", "linkedin"]);
    // Every line fits LinkedIn's 3000 characters, so the notes are whole …
    expect(caption.text).toBe(`octo/app v2.1.0\n${URL_}\n\n${notes}`);
    expect(measure(caption.text, "characters")).toBeLessThanOrEqual(3000);
    // … and X, which cuts the caption to 280, still shows the title and the URL.
    expect(adaptText(caption.text, "x", false)).toMatch(
      new RegExp(`^octo/app v2\\.1\\.0\\n${URL_}\\n\\n• Change`),
    );
    expect(caption.warnings).toEqual([]);
  });

  it("notes last: the caption is capped at the longest limit in play", () => {
    const caption = compose(DEFAULT_TEMPLATE, notesOf(200), ["x", "linkedin"]);
    expect(caption.notesShortened).toBe(true);
    expect(measure(caption.text, "characters")).toBeLessThanOrEqual(3000);
    expect(caption.text.endsWith("better\n…")).toBe(true);
  });

  it("notes before the URL: the notes are shortened until the URL fits the shortest network", () => {
    const caption = compose("{body}\n\nRelease: {url}", notesOf(40), ["x", "linkedin"]);
    expect(caption.notesShortened).toBe(true);
    expect(measure(caption.text, "characters")).toBeLessThanOrEqual(280);
    expect(caption.text.endsWith(`\n\nRelease: ${URL_}`)).toBe(true);
    expect(adaptText(caption.text, "x", false)).toBe(caption.text);
  });

  it("whole lines are kept, then … on a line of its own", () => {
    const caption = compose("{body}\n{url}", notesOf(10), ["x"]);
    expect(caption.text).toMatch(/^(• Change number \d+ makes the app a little better\n)+…\nhttps:/);
  });

  it("a first line longer than the room is cut at a word, with …", () => {
    const long = `${"Speed ".repeat(100).trim()}.`;
    const caption = compose("{body}\n{url}", long, ["x"]);
    expect(caption.text).toMatch(/^Speed( Speed)+…\nhttps:/);
    expect(measure(caption.text, "weighted")).toBeLessThanOrEqual(280);
  });

  it("a cut inside a line leaves no separator dangling before the …", () => {
    // Every alignment of the cut against the "|" separators of a long table row.
    for (let pad = 0; pad < 7; pad++) {
      const row = `${"a".repeat(pad + 1)} ${"cell | ".repeat(60)}`.trim();
      const caption = compose("{body}\n{url}", row, ["x"]);
      expect(caption.text, `pad ${pad}`).toMatch(/ cell…\nhttps:/);
      expect(measure(caption.text, "weighted")).toBeLessThanOrEqual(280);
    }
  });

  it("whole lines never end on a heading whose content was cut; the first words of it are kept instead", () => {
    const item = `• ${"A new resolution mode resolves direct dependencies to their lowest versions. ".repeat(4).trim()}`;
    const notes = `Minor Changes\n${item}\n\nPatch Changes\n• Fix version numbers`;
    const caption = compose(DEFAULT_TEMPLATE, notes, ["x"]);
    expect(caption.text).not.toMatch(/Changes\n…$/);
    expect(caption.text).toMatch(
      new RegExp(
        `^octo/app v2\\.1\\.0\\n${URL_}\\n\\nMinor Changes\\n• A new resolution mode (\\S+ )+\\S+…$`,
      ),
    );
    expect(measure(caption.text, "weighted")).toBeLessThanOrEqual(280);
  });

  it("a link is never cut in the middle: the cut goes back before it", () => {
    const notes =
      "Notable Changes\nThe known issue relating to Buffer.allocUnsafe incorrectly zero-filling buffers has now been addressed and now returns uninitialized memory as documented in the Buffer.allocUnsafe reference page, which now says so in its first paragraph (https://nodejs.org/docs/latest-v24.x/api/buffer.html#static-method-bufferallocunsafesize) documentation.";
    const caption = compose(DEFAULT_TEMPLATE, notes, ["x"]);
    expect(caption.text).toMatch(
      /\nNotable Changes\nThe known issue .* reference page, which now says so in its…$/,
    );
    expect(caption.text).not.toContain("nodejs.org");
    expect(measure(caption.text, "weighted")).toBeLessThanOrEqual(280);
  });

  it("Bluesky is measured in graphemes, as the service measures it", () => {
    const notes = "👍🏽 ".repeat(400).trim(); // one grapheme, two code points each
    const caption = compose("{body}\n{url}", notes, ["bluesky"]);
    expect(measure(caption.text, "graphemes")).toBeLessThanOrEqual(300);
    expect(measure(caption.text, "characters")).toBeGreaterThan(300);
    expect(caption.text.endsWith(URL_)).toBe(true);
  });

  it("with media, Telegram's shorter caption limit is the one that counts", () => {
    const withoutMedia = compose("{body}\n{url}", notesOf(40), ["telegram"], false);
    const withMedia = compose("{body}\n{url}", notesOf(40), ["telegram"], true);
    expect(withoutMedia.notesShortened).toBe(false);
    expect(measure(withMedia.text, "characters")).toBeLessThanOrEqual(1024);
    expect(withMedia.text.endsWith(URL_)).toBe(true);
  });

  it("too little room for notes: the post goes without them rather than with a stub", () => {
    const caption = compose(`${"x".repeat(240)}\n{body}\n{url}`, notesOf(5), ["x"]);
    // X counts the URL as 23: 15 of the 280 are left for notes.
    expect(caption.text).toBe(`${"x".repeat(240)}\n${URL_}`);
  });

  it("a template too long for a network even without notes is reported by network", () => {
    const caption = compose(`${"word ".repeat(70)}{url}\n{body}`, notesOf(3), ["x", "linkedin"]);
    expect(caption.warnings).toHaveLength(1);
    expect(caption.warnings[0]).toMatch(
      /^X shows at most 280 characters, .* is already 3\d\d: X cuts the end/,
    );
  });
});
