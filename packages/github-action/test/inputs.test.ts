import { describe, expect, it } from "vitest";
import { InputError } from "../src/input-error.ts";
import { parseBoolean, parsePlatforms, readInputs } from "../src/inputs.ts";
import { mediaBody } from "../src/media-input.ts";
import { TemplateError } from "../src/template.ts";

const KEY = "sp_test_0123456789abcdefghijklmnopqrstuv";

function reader(values: Record<string, string>) {
  return (name: string) => values[name] ?? "";
}

const minimal = { "api-key": KEY, "base-url": "https://api.example.com/api/v1/" };

describe("inputs", () => {
  it("reads the minimal inputs with their defaults", () => {
    const inputs = readInputs(reader(minimal));
    expect(inputs).toMatchObject({
      apiKey: KEY,
      baseUrl: "https://api.example.com/api/v1",
      platforms: [],
      media: [],
      longNotes: "shorten",
      firstComment: undefined,
      scheduleAt: undefined,
      skipPrerelease: true,
      dryRun: false,
      idempotencyKey: undefined,
      tag: undefined,
    });
    expect(inputs.template.map((p) => (p.kind === "variable" ? `{${p.name}}` : p.text)).join("")).toBe(
      "{repo} {name}\n{url}\n\n{body}",
    );
  });

  it("platforms: commas or newlines, case and spaces ignored, duplicates collapsed", () => {
    expect(parsePlatforms("x, LinkedIn,bluesky")).toEqual(["x", "linkedin", "bluesky"]);
    expect(parsePlatforms("x\n  threads\n\nx\n")).toEqual(["x", "threads"]);
    expect(parsePlatforms("")).toEqual([]);
  });

  it("platforms: an unknown network is refused, naming it and listing the known ones", () => {
    expect(() => parsePlatforms("x, mastodon")).toThrow(InputError);
    expect(() => parsePlatforms("x, mastodon")).toThrow(
      /unknown network "mastodon".*tiktok, instagram, youtube, x/,
    );
    expect(() => parsePlatforms("twitter")).toThrow('(twitter is "x")');
  });

  it("booleans accept YAML's spellings and refuse anything else", () => {
    expect(parseBoolean("dry-run", "TRUE", false)).toBe(true);
    expect(parseBoolean("dry-run", "False", true)).toBe(false);
    expect(parseBoolean("dry-run", "", true)).toBe(true);
    expect(() => parseBoolean("dry-run", "yes", false)).toThrow(
      'The `dry-run` input is "yes"; use true or false.',
    );
  });

  it("api-key and base-url are required, with a message saying how to set them", () => {
    expect(() => readInputs(reader({ "base-url": "https://a.test/api/v1" }))).toThrow(
      /`api-key` input is empty.*secrets\./,
    );
    expect(() => readInputs(reader({ "api-key": KEY }))).toThrow(/`base-url` input is empty/);
  });

  it("base-url must be an http(s) URL", () => {
    expect(() => readInputs(reader({ ...minimal, "base-url": "api.example.com" }))).toThrow(/is not a URL/);
    expect(() => readInputs(reader({ ...minimal, "base-url": "ftp://api.example.com" }))).toThrow(
      /https:\/\//,
    );
  });

  it("media must be an http(s) URL or a med_ id", () => {
    expect(readInputs(reader({ ...minimal, media: "https://cdn.test/a.png" })).media).toEqual([
      { ref: "https://cdn.test/a.png" },
    ]);
    expect(readInputs(reader({ ...minimal, media: "med_01J" })).media).toEqual([{ ref: "med_01J" }]);
    expect(() => readInputs(reader({ ...minimal, media: "./logo.png" }))).toThrow(
      /neither a URL nor a media id/,
    );
  });

  it("media: one item per line, each with its alt text after |; sent as the API's list", () => {
    const media = readInputs(
      reader({
        ...minimal,
        media:
          "https://cdn.test/a.png | The new dashboard, composer open\n\n  med_01J  \nhttps://cdn.test/c.mp4|",
      }),
    ).media;
    expect(media).toEqual([
      { ref: "https://cdn.test/a.png", alt: "The new dashboard, composer open" },
      { ref: "med_01J" },
      { ref: "https://cdn.test/c.mp4" },
    ]);
    expect(mediaBody(media)).toEqual([
      { url: "https://cdn.test/a.png", alt: "The new dashboard, composer open" },
      { id: "med_01J" },
      { url: "https://cdn.test/c.mp4" },
    ]);
    // One item without alt text stays the contract's plain string.
    expect(mediaBody([{ ref: "https://cdn.test/a.png" }])).toBe("https://cdn.test/a.png");
    expect(() =>
      readInputs(reader({ ...minimal, media: `https://cdn.test/a.png | ${"a".repeat(1001)}` })),
    ).toThrow(/alt text of `media` item 1 is 1001 characters; networks take at most 1000/);
    const many = Array.from({ length: 21 }, (_, i) => `https://cdn.test/${i}.png`).join("\n");
    expect(() => readInputs(reader({ ...minimal, media: many }))).toThrow(
      /lists 21 items; a post takes at most 20/,
    );
  });

  it("long-notes is thread or shorten (the default); first-comment is a template", () => {
    expect(readInputs(reader({ ...minimal, "long-notes": "Thread" })).longNotes).toBe("thread");
    expect(readInputs(reader({ ...minimal, "long-notes": "" })).longNotes).toBe("shorten");
    expect(() => readInputs(reader({ ...minimal, "long-notes": "split" }))).toThrow(
      /`long-notes` input is "split"; use thread .* or shorten/,
    );
    expect(readInputs(reader({ ...minimal, "first-comment": "Notes: {url}" })).firstComment).toEqual([
      { kind: "text", text: "Notes: " },
      { kind: "variable", name: "url" },
    ]);
    expect(() => readInputs(reader({ ...minimal, "first-comment": "{link}" }))).toThrow(
      /`first-comment` input/,
    );
  });

  it("idempotency-key must be 1 to 255 printable characters", () => {
    expect(readInputs(reader({ ...minimal, "idempotency-key": "launch-v2" })).idempotencyKey).toBe(
      "launch-v2",
    );
    expect(() => readInputs(reader({ ...minimal, "idempotency-key": "x".repeat(256) }))).toThrow(
      /255 printable/,
    );
    expect(() => readInputs(reader({ ...minimal, "idempotency-key": "tab\there" }))).toThrow(/printable/);
  });

  it("a template with an unknown variable fails before anything is posted", () => {
    expect(() => readInputs(reader({ ...minimal, template: "{title}" }))).toThrow(TemplateError);
  });

  it("errors never repeat the api key", () => {
    const wrongInputs: Record<string, string>[] = [
      { "base-url": "nope" },
      { platforms: "nope" },
      { media: "nope" },
      { "dry-run": "nope" },
    ];
    for (const wrong of wrongInputs) {
      try {
        readInputs(reader({ ...minimal, ...wrong }));
        expect.unreachable();
      } catch (error) {
        expect((error as Error).message).not.toContain(KEY);
      }
    }
  });
});

describe("direct mode inputs", () => {
  const bluesky = { "bluesky-handle": "alice.test", "bluesky-app-password": "abcd-efgh-ijkl-mnop" };

  it("base-url empty and a network's credentials: direct mode, no key needed", () => {
    const inputs = readInputs(
      reader({ ...bluesky, "discord-webhook-url": "https://discord.com/api/webhooks/1/t" }),
    );
    expect(inputs.direct).toEqual({
      bluesky: { handle: "alice.test", appPassword: "abcd-efgh-ijkl-mnop", service: undefined },
      discord: { webhookUrl: "https://discord.com/api/webhooks/1/t" },
    });
    expect(inputs).toMatchObject({ apiKey: "", baseUrl: "" });
  });

  it("a network with part of its inputs fails, naming what is missing", () => {
    expect(() => readInputs(reader({ "bluesky-handle": "alice.test" }))).toThrow(
      /`bluesky-handle` is set but `bluesky-app-password` is empty/,
    );
    expect(() => readInputs(reader({ "telegram-chat": "@releases" }))).toThrow(
      /`telegram-bot-token` is empty/,
    );
  });

  it("X takes all four OAuth 1.0a credentials or none; a missing one is named, no value repeated", () => {
    const x = {
      "x-api-key": "consumer-key-1",
      "x-api-key-secret": "consumer-secret-2",
      "x-access-token": "1-access-token-3",
      "x-access-token-secret": "access-secret-4",
    };
    expect(readInputs(reader(x)).direct).toEqual({
      x: {
        apiKey: "consumer-key-1",
        apiKeySecret: "consumer-secret-2",
        accessToken: "1-access-token-3",
        accessTokenSecret: "access-secret-4",
      },
    });
    const partial = { ...x, "x-api-key-secret": "", "x-access-token-secret": " " };
    let message = "";
    try {
      readInputs(reader(partial));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      "`x-api-key` and `x-access-token` are set but `x-api-key-secret` and `x-access-token-secret` are empty: " +
        "posting to X directly needs `x-api-key`, `x-api-key-secret`, `x-access-token` and `x-access-token-secret`.",
    );
    for (const value of Object.values(x)) expect(message).not.toContain(value);
  });

  it("base-url with direct credentials, or api-key without base-url, names what to drop", () => {
    expect(() => readInputs(reader({ ...minimal, ...bluesky }))).toThrow(
      /Drop `bluesky-handle`, `bluesky-app-password` to post through the service/,
    );
    expect(() => readInputs(reader({ "api-key": KEY, ...bluesky }))).toThrow(
      /drop `api-key` to post directly/,
    );
  });

  it("schedule-at and a service's media id need a service", () => {
    expect(() => readInputs(reader({ ...bluesky, "schedule-at": "2030-01-01T00:00:00Z" }))).toThrow(
      /`schedule-at` needs a service/,
    );
    expect(() => readInputs(reader({ ...bluesky, media: "med_01J" }))).toThrow(/no service is used/);
  });

  it("errors never repeat the app password", () => {
    try {
      readInputs(reader({ ...minimal, ...bluesky }));
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain(bluesky["bluesky-app-password"]);
    }
  });
});
