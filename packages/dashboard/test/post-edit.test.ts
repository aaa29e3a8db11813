import { adaptText, NETWORK_RULES, type Post } from "@socialpub/core";
import { describe, expect, test } from "vitest";
import { hasOwnText } from "../src/lib/own-text.ts";
import { draftOf, editBody, fromUtcInput, toUtcInput } from "../src/lib/post-edit.ts";

const post: Post = {
  id: "post_01J0000000000000000000000",
  caption: "Release 2.0",
  platforms: ["x", "linkedin"],
  status: "scheduled",
  has_media: false,
  scheduled_at: Date.parse("2030-01-02T03:04:05Z"),
  published_at: null,
  reach: 0,
  engagement_rate: 0,
};

describe("a network's own text, read back from its target", () => {
  const long = `Release notes. ${"Every network gets its own cut of this caption. ".repeat(10)}`;

  test("the caption, whole or as the service shortened it, is not the network's own text", () => {
    expect(hasOwnText("Hello", "Hello", NETWORK_RULES.x, false)).toBe(false);
    const cut = adaptText(long, "x", false);
    expect(cut).not.toBe(long);
    expect(hasOwnText(long, cut, NETWORK_RULES.x, false)).toBe(false);
    expect(hasOwnText(long, adaptText(long, "bluesky", false), NETWORK_RULES.bluesky, false)).toBe(false);
  });

  test("any other text is, shortened or not", () => {
    expect(hasOwnText("Hello", "Hello on LinkedIn", NETWORK_RULES.linkedin, false)).toBe(true);
    expect(hasOwnText("", "Only on X", NETWORK_RULES.x, false)).toBe(true);
    expect(hasOwnText("Short", adaptText(long, "x", false), NETWORK_RULES.x, false)).toBe(true);
  });
});

describe("the PATCH body of an edit", () => {
  const before = draftOf(post, { linkedin: "For teams" });

  test("the form starts from the post: caption, networks, own texts and the due time in UTC", () => {
    expect(before).toEqual({
      caption: "Release 2.0",
      platforms: ["x", "linkedin"],
      texts: { linkedin: "For teams" },
      media: "",
      removeMedia: false,
      due: "2030-01-02T03:04",
    });
  });

  test("nothing changed sends nothing", () => {
    expect(editBody(before, { ...before })).toBeNull();
  });

  test("only the changed fields are sent, so a caption edit keeps the own texts", () => {
    expect(editBody(before, { ...before, caption: "Release 2.1" })).toEqual({ caption: "Release 2.1" });
    expect(editBody(before, { ...before, due: "2030-02-01T10:30" })).toEqual({
      schedule_at: "2030-02-01T10:30:00Z",
    });
    expect(editBody(before, { ...before, platforms: ["x"] })).toEqual({ platforms: ["x"] });
  });

  test("an own text changed sends every chosen network's own text, as the API replaces them all", () => {
    expect(editBody(before, { ...before, texts: { linkedin: "For teams", x: " On X " } })).toEqual({
      captions: { linkedin: "For teams", x: "On X" },
    });
    expect(editBody(before, { ...before, texts: { linkedin: "  " } })).toEqual({ captions: {} });
  });

  test("media: a new one, removed, or kept when the field is left empty", () => {
    expect(editBody(before, { ...before, media: " med_1 " })).toEqual({ media: "med_1" });
    expect(editBody(before, { ...before, media: "med_1", removeMedia: true })).toEqual({ media: null });
  });

  test("an emptied due time makes a scheduled post a draft; a time schedules a draft", () => {
    expect(editBody(before, { ...before, due: "" })).toEqual({ schedule_at: null });
    const draft = draftOf({ ...post, status: "draft", scheduled_at: null }, {});
    expect(draft.due).toBe("");
    expect(editBody(draft, { ...draft, due: "2030-01-01T00:00" })).toEqual({
      schedule_at: "2030-01-01T00:00:00Z",
    });
  });

  test("times round-trip through the datetime-local form as UTC", () => {
    const ms = Date.parse("2031-07-08T09:10:00Z");
    expect(Date.parse(fromUtcInput(toUtcInput(ms)))).toBe(ms);
  });
});
