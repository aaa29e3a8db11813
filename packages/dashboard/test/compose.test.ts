import { CreatePostBody, NETWORK_OPTION_SCHEMAS, NETWORK_RULES, UpdatePostBody } from "@socialpub/core";
import { describe, expect, test } from "vitest";
import { withNetworkRules } from "../serve/network-rules.ts";
import { contentBody, draftFromContent, emptyDraft, replaceBody } from "../src/lib/compose.ts";
import { parseNetworkRules, withNetworkNames } from "../src/lib/network-rules.ts";

/** The network rules as the server puts them in the page, options included. */
const rules = parseNetworkRules(
  /<script type="application\/json" id="socialpub-networks">(.*)<\/script>/s.exec(
    withNetworkRules("<html><head></head></html>"),
  )![1]!,
);

describe("the composer's bodies", () => {
  test("a plain post sends only the contract's fields, media as one string", () => {
    const draft = {
      ...emptyDraft(),
      caption: "Hello",
      platforms: ["x" as const],
      media: [{ ref: "https://a.test/1.png", alt: "" }],
    };
    expect(contentBody(draft, rules)).toEqual({
      caption: "Hello",
      platforms: ["x"],
      media: "https://a.test/1.png",
    });
  });

  test("a rich post: media with alt, thread parts, split, first comment, poll and options, accepted by the contract", () => {
    const draft = {
      ...emptyDraft(),
      caption: "Launch",
      platforms: ["x" as const, "youtube" as const, "linkedin" as const],
      texts: { linkedin: "Launch on LinkedIn ", x: "  " },
      media: [
        { ref: "https://a.test/1.png", alt: "A chart going up" },
        { ref: "med_01J", alt: "" },
        { ref: " ", alt: "ignored: no reference" },
      ],
      thread: [
        { caption: "Part two", media: [{ ref: "https://a.test/2.png", alt: "Two" }] },
        { caption: " ", media: [] },
      ],
      split: true,
      firstComment: " https://example.com ",
      pollOptions: ["Yes", " ", "No"],
      pollMinutes: "60",
      options: {
        youtube: { title: "Launch video", tags: "launch, video,", made_for_kids: "false", privacy: "" },
        // Options of a network the post does not target are not sent.
        reddit: { title: "Not sent" },
      },
    };
    const body = contentBody(draft, rules);
    expect(body).toEqual({
      caption: "Launch",
      platforms: ["x", "youtube", "linkedin"],
      captions: { linkedin: "Launch on LinkedIn" },
      media: [{ url: "https://a.test/1.png", alt: "A chart going up" }, "med_01J"],
      thread: [{ caption: "Part two", media: [{ url: "https://a.test/2.png", alt: "Two" }] }],
      split: "thread",
      first_comment: "https://example.com",
      poll: { options: ["Yes", "No"], duration_minutes: 60 },
      options: { youtube: { title: "Launch video", tags: ["launch", "video"], made_for_kids: false } },
    });
    expect(CreatePostBody.safeParse(body).success).toBe(true);
  });

  test("editing replaces every field, null for what the form emptied, and the contract accepts it", () => {
    const body = replaceBody({ ...emptyDraft(), caption: "Only text", platforms: ["bluesky"] }, rules);
    expect(body).toEqual({
      caption: "Only text",
      platforms: ["bluesky"],
      captions: {},
      media: null,
      thread: null,
      split: "shorten",
      first_comment: null,
      poll: null,
      options: null,
    });
    expect(UpdatePostBody.safeParse(body).success).toBe(true);
  });

  test("a stored post's content becomes the draft it was written from", () => {
    const draft = draftFromContent(
      {
        caption: "Launch",
        captions: { linkedin: "On LinkedIn" },
        media: [{ url: "https://a.test/1.png", type: "image/png", alt: "A chart" }],
        thread: [{ caption: "Two", media: [] }],
        first_comment: "Link",
        poll: { options: ["Yes", "No"], duration_minutes: 30 },
        options: { youtube: { tags: ["a", "b"], made_for_kids: true } },
        split: "thread",
      },
      ["x", "linkedin"],
    );
    expect(draft).toMatchObject({
      caption: "Launch",
      platforms: ["x", "linkedin"],
      texts: { linkedin: "On LinkedIn" },
      media: [{ ref: "https://a.test/1.png", alt: "A chart" }],
      thread: [{ caption: "Two", media: [] }],
      split: true,
      firstComment: "Link",
      pollOptions: ["Yes", "No"],
      pollMinutes: "30",
      options: { youtube: { tags: "a, b", made_for_kids: "true" } },
    });
  });

  test("the options the page offers are the contract's, field by field, as the server puts them in the page", () => {
    const contract = Object.fromEntries(
      Object.entries(NETWORK_OPTION_SCHEMAS).map(([id, schema]) => [id, Object.keys(schema.shape).sort()]),
    );
    const offered = Object.fromEntries(
      [...rules.values()].filter((r) => r.options).map((r) => [r.id, Object.keys(r.options!).sort()]),
    );
    expect(offered).toEqual(contract);
    // Each field offered as the schema takes it: a choice of the enum's values, a flag, a list.
    expect(rules.get("youtube")?.options).toMatchObject({
      privacy: { choices: ["public", "unlisted", "private"] },
      tags: "list",
      made_for_kids: "flag",
      title: "text",
    });
  });
});

describe("a refusal as the composer shows it", () => {
  const rules = parseNetworkRules(JSON.stringify(Object.values(NETWORK_RULES)));

  test("the networks the post targets are called by their names, as the checkboxes show them", () => {
    expect(
      withNetworkNames("poll: linkedin takes no poll: remove the poll, or remove it from platforms.", rules, [
        "x",
        "linkedin",
      ]),
    ).toBe("poll: LinkedIn takes no poll: remove the poll, or remove it from platforms.");
    expect(
      withNetworkNames("poll: x takes no poll on a post with media: … or remove x from platforms.", rules, [
        "x",
      ]),
    ).toBe("poll: X takes no poll on a post with media: … or remove X from platforms.");
  });

  test("a field, an address or another word holding an id is left as it is", () => {
    const message = "captions.linkedin is too long for linkedin.com; options.x and a 2x image; threads";
    expect(withNetworkNames(message, rules, ["linkedin", "x"])).toBe(message);
  });
});
