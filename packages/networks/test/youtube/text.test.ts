import { describe, expect, it } from "vitest";
import { untilQuotaReset } from "../../src/youtube/api.ts";
import { videoText } from "../../src/youtube/text.ts";

describe("a post's text as a YouTube title and description", () => {
  it("takes the first line that is not blank as the title and the rest as the description", () => {
    expect(videoText("\n  Launch day \nLine two\n\nLine three", "clip")).toEqual({
      title: "Launch day",
      description: "Line two\n\nLine three",
    });
    expect(videoText("Only a title", "clip")).toEqual({ title: "Only a title", description: "" });
  });

  it("titles a video without text by its file name", () => {
    expect(videoText("   ", "holiday-2026")).toEqual({ title: "holiday-2026", description: "" });
  });

  it("cuts a long first line on a whole word within 100 characters and keeps it whole in the description", () => {
    const line = `${"word ".repeat(30)}end`;
    const { title, description } = videoText(`${line}\nrest`, "clip");
    expect([...title].length).toBeLessThanOrEqual(100);
    expect(title).toMatch(/^(word )+…$|^(word )*word…$/);
    expect(description).toBe(`${line}\n\nrest`);
  });

  it("writes < and > as look-alikes, which YouTube refuses in titles and descriptions", () => {
    expect(videoText("a <b> c\n1 > 0", "clip")).toEqual({ title: "a ‹b› c", description: "1 › 0" });
  });

  it("keeps the description within 5000 bytes, counting multi-byte characters", () => {
    const { description } = videoText(`Title\n${"é".repeat(4000)}`, "clip");
    expect(Buffer.byteLength(description)).toBeLessThanOrEqual(5000);
    expect(description.endsWith("…")).toBe(true);
  });
});

describe("YouTube's daily quota", () => {
  it("resets at midnight Pacific Time, in winter and in summer", () => {
    // 2026-11-24 07:00 UTC is 23:00 PST the day before: an hour to go.
    expect(untilQuotaReset(Date.parse("2026-11-24T07:00:00Z"))).toBe(60 * 60_000);
    // 2026-07-01 06:30 UTC is 23:30 PDT: half an hour to go.
    expect(untilQuotaReset(Date.parse("2026-07-01T06:30:00Z"))).toBe(30 * 60_000);
  });
});
