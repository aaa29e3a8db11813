import { CreatePostBody, NETWORK_OPTION_SCHEMAS, ScheduleBody, UpdatePostBody } from "@socialpub/core";
import type { INodeProperties } from "n8n-workflow";
import { NodeHelpers, NodeOperationError } from "n8n-workflow";
import { afterEach, describe, expect, it } from "vitest";
import { SocialPublish } from "../nodes/SocialPublish/SocialPublish.node.ts";
import type { ExecuteOptions } from "./support/n8n-context.mts";
import { failSocialPublish, runSocialPublish } from "./support/run-node.mts";
import { type InProcessService, inProcessService } from "./support/service.mts";

// Rich posts from the node: several media with alt text, thread parts, Long Text, the first comment,
// a poll and each network's options, as Create, Validate, Schedule and Update send them. Each body is
// checked against the contract's own request schema and accepted by the reference service.

let service: InProcessService;
afterEach(async () => {
  await service?.close();
});

function options(
  parameters: ExecuteOptions["parameters"],
  extra: Partial<ExecuteOptions> = {},
): ExecuteOptions {
  return { http: service.http, credentials: service.credentials, parameters, ...extra };
}

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
const withPng = {
  items: [{ json: {}, binary: { photo: { data: PNG.toString("base64"), mimeType: "image/png" } } }],
};

const create = (parameters: Record<string, unknown>) => ({
  resource: "post",
  operation: "create",
  ...parameters,
});

describe("rich posts: Create", () => {
  it("sends Media Items in order, each with its alt text, uploading a binary item first under a key of its own", async () => {
    service = await inProcessService({ accounts: ["x", "bluesky"] });
    const { output } = await runSocialPublish(
      options(
        create({
          caption: "Launch day",
          networks: ["x", "bluesky"],
          mediaSource: "list",
          mediaItems: {
            item: [
              { source: "url", url: " https://example.com/one.png ", alt: "The first screen" },
              { source: "url", url: "https://example.com/two.png", alt: "" },
              { source: "binary", binaryPropertyName: "photo", alt: "A dot" },
            ],
          },
        }),
        withPng,
      ),
    );
    const [upload] = service.http.to("POST", "/media");
    expect(Buffer.compare(upload!.body as Buffer, PNG)).toBe(0);
    const post = service.http.to("POST", "/posts")[0]!;
    expect(upload!.headers["idempotency-key"]).toBe(`${post.headers["idempotency-key"]}-media-3`);
    const body = post.body as { media: unknown[] };
    expect(body.media).toEqual([
      { url: "https://example.com/one.png", alt: "The first screen" },
      "https://example.com/two.png",
      { id: expect.stringMatching(/^med_/), alt: "A dot" },
    ]);
    expect(CreatePostBody.safeParse(body).success).toBe(true);
    expect(output[0]!.json).toMatchObject({ has_media: true, status: "published" });
  });

  it("sends a single URL with Alt Text as a list of one, so the alt text goes with it; without alt text as before", async () => {
    service = await inProcessService({ accounts: ["x"] });
    const single = (mediaAlt: string) =>
      create({
        caption: "one picture",
        networks: ["x"],
        mediaSource: "url",
        mediaUrl: "https://example.com/cat.png",
        mediaAlt,
      });
    await runSocialPublish(
      options([single("A cat on a mat"), single("")], { items: [{ json: {} }, { json: {} }] }),
    );
    expect(
      service.http.to("POST", "/posts").map((request) => (request.body as { media: unknown }).media),
    ).toEqual([
      [{ url: "https://example.com/cat.png", alt: "A cat on a mat" }],
      "https://example.com/cat.png",
    ]);
  });

  it("sends thread parts, Long Text, the first comment, a poll and each network's options as the contract names them", async () => {
    // X and Telegram both take a poll; the med_ id is an upload the service knows.
    service = await inProcessService({ accounts: ["x", "telegram"] });
    const upload = (await service.http.request(
      "socialPublishApi",
      {
        method: "POST",
        url: `${service.credentials.baseUrl}/media`,
        headers: { "content-type": "image/png" },
        body: PNG,
      },
      service.credentials,
    )) as { id: string };
    const { output } = await runSocialPublish(
      options(
        create({
          caption: "Release 2.0 is out",
          networks: ["x", "telegram"],
          thread: {
            part: [
              { caption: "What is new: threads", media: "", alt: "" },
              {
                caption: "",
                media: `https://example.com/chart.png\n${upload.id}`,
                alt: "A chart of downloads\n",
              },
            ],
          },
          split: "thread",
          firstComment: "  https://example.com/release  ",
          poll: { settings: { choices: "Love it\n\nNeed more\n", durationMinutes: 1440 } },
          xOptions: { reply_settings: "following" },
          telegramOptions: { silent: true },
          linkedinOptions: {},
        }),
      ),
    );
    const body = service.http.to("POST", "/posts")[0]!.body as Record<string, unknown>;
    expect(body).toEqual({
      caption: "Release 2.0 is out",
      platforms: ["x", "telegram"],
      thread: [
        { caption: "What is new: threads" },
        {
          media: [{ url: "https://example.com/chart.png", alt: "A chart of downloads" }, upload.id],
        },
      ],
      split: "thread",
      first_comment: "https://example.com/release",
      poll: { options: ["Love it", "Need more"], duration_minutes: 1440 },
      options: { x: { reply_settings: "following" }, telegram: { silent: true } },
    });
    expect(CreatePostBody.safeParse(body).error).toBeUndefined();
    expect(output[0]!.json.id).toMatch(/^post_/);
  });

  it("leaves every rich field out of a post that sets none, so its request is the contract's plain one", async () => {
    service = await inProcessService();
    await runSocialPublish(
      options(create({ caption: "plain", networks: ["x"], split: "shorten", firstComment: "" })),
    );
    expect(service.http.to("POST", "/posts")[0]!.body).toEqual({ caption: "plain", platforms: ["x"] });
  });

  it.each([
    [
      "an empty thread part",
      { thread: { part: [{ caption: "two" }, { caption: "  ", media: "" }] } },
      "Thread part 2 is empty",
    ],
    [
      "more alt lines than media",
      { thread: { part: [{ caption: "p", media: "https://example.com/a.png", alt: "one\ntwo" }] } },
      "Thread part 1 has 2 lines of alt text for 1 media",
    ],
    [
      "a poll with one choice",
      { poll: { settings: { choices: "Only one", durationMinutes: 60 } } },
      "Poll has 1 choice",
    ],
    ["an empty Media Items", { mediaSource: "list", mediaItems: {} }, "Media Items is empty"],
    [
      "a media item without its URL",
      { mediaSource: "list", mediaItems: { item: [{ source: "url", url: " ", alt: "x" }] } },
      "Media item 1 has no URL or ID",
    ],
    [
      "alt text over 1,000 characters",
      { mediaSource: "url", mediaUrl: "https://example.com/a.png", mediaAlt: "a".repeat(1001) },
      "Alt Text is 1001 characters long",
    ],
  ])("refuses %s before calling the service, naming what to fix", async (_, fields, message) => {
    service = await inProcessService();
    const error = await failSocialPublish(options(create({ caption: "c", networks: ["x"], ...fields })));
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toBe(message);
    expect(String(error.description)).not.toBe("");
    expect(service.http.requests).toHaveLength(0);
  });

  it("passes on the service's refusal of an option the network does not have", async () => {
    service = await inProcessService({ accounts: ["x"] });
    const error = await failSocialPublish(
      options(create({ caption: "c", networks: ["x"], xOptions: { reply_settings: "everyone" } })),
    );
    expect(error.httpCode).toBe("400");
    expect(error.message).toMatch(/reply_settings/);
  });
});

describe("rich posts: Validate and Schedule", () => {
  it("Validate sends the same rich body as Create and stores nothing", async () => {
    service = await inProcessService({ accounts: ["x"] });
    const parameters = {
      caption: "check me",
      networks: ["x"],
      thread: { part: [{ caption: "second" }] },
      firstComment: "a link",
    };
    const { output } = await runSocialPublish(
      options({ resource: "post", operation: "validate", ...parameters }),
    );
    expect(output[0]!.json).toMatchObject({ valid: true });
    expect(service.http.to("POST", "/posts/validate")[0]!.body).toEqual({
      caption: "check me",
      platforms: ["x"],
      thread: [{ caption: "second" }],
      first_comment: "a link",
    });
    expect(service.http.to("POST", "/posts")).toHaveLength(0);
  });

  it("Schedule sends the rich fields with the time, tags as a list and flags as booleans", async () => {
    service = await inProcessService({ accounts: ["x", "youtube"] });
    const { output } = await runSocialPublish(
      options({
        resource: "post",
        operation: "schedule",
        caption: "A video",
        networks: ["x", "youtube"],
        when: "next",
        mediaSource: "url",
        mediaUrl: "https://example.com/clip.mp4",
        firstComment: "Chapters in the description",
        youtubeOptions: {
          title: "Release 2.0",
          tags: "release, demo ,,",
          made_for_kids: false,
          privacy: "unlisted",
        },
      }),
    );
    const body = service.http.to("POST", "/schedule")[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      at: "next",
      first_comment: "Chapters in the description",
      options: {
        youtube: {
          title: "Release 2.0",
          tags: ["release", "demo"],
          made_for_kids: false,
          privacy: "unlisted",
        },
      },
    });
    expect(ScheduleBody.safeParse(body).error).toBeUndefined();
    expect(output[0]!.json).toMatchObject({ status: "scheduled" });
  });
});

describe("rich posts: Update", () => {
  async function draft(networks = ["x", "linkedin"]): Promise<string> {
    const { output } = await runSocialPublish(
      options(create({ caption: "draft", networks, publish: "draft" })),
    );
    return output[0]!.json.id as string;
  }
  const update = (postId: string, parameters: Record<string, unknown>) => ({
    resource: "post",
    operation: "update",
    postId,
    ...parameters,
  });

  it("replaces the media, thread, first comment, poll and options with the ones given", async () => {
    // Discord takes a poll on a post with media.
    service = await inProcessService({ accounts: ["discord"] });
    const postId = await draft(["discord"]);
    await runSocialPublish(
      options(
        update(postId, {
          updateFields: { firstComment: "new comment", split: "thread" },
          mediaItems: { item: [{ source: "binary", binaryPropertyName: "photo", alt: "A dot" }] },
          thread: { part: [{ caption: "more" }] },
          poll: { settings: { choices: ["Yes", "No"], durationMinutes: 60 } },
          discordOptions: { username: "Release bot" },
        }),
        withPng,
      ),
    );
    const request = service.http.to("PATCH", `/posts/${postId}`)[0]!;
    expect(request.body).toEqual({
      split: "thread",
      first_comment: "new comment",
      thread: [{ caption: "more" }],
      poll: { options: ["Yes", "No"], duration_minutes: 60 },
      options: { discord: { username: "Release bot" } },
      media: [{ id: expect.stringMatching(/^med_/), alt: "A dot" }],
    });
    expect(service.http.to("POST", "/media")[0]!.headers["idempotency-key"]).toBe(
      `${request.headers["idempotency-key"]}-media-1`,
    );
    expect(UpdatePostBody.safeParse(request.body).error).toBeUndefined();
  });

  it("removes each with its Remove field: null in the request, as the contract says", async () => {
    service = await inProcessService({ accounts: ["x", "linkedin"] });
    const postId = await draft();
    const { output } = await runSocialPublish(
      options(
        update(postId, {
          updateFields: {
            caption: "edited",
            removeFirstComment: true,
            removeThread: true,
            removePoll: true,
            removeNetworkOptions: true,
          },
        }),
      ),
    );
    const body = service.http.to("PATCH", `/posts/${postId}`)[0]!.body;
    expect(body).toEqual({ caption: "edited", first_comment: null, thread: null, poll: null, options: null });
    expect(UpdatePostBody.safeParse(body).error).toBeUndefined();
    expect(output[0]!.json).toMatchObject({ id: postId, status: "draft" });
  });

  it.each([
    [
      { updateFields: { firstComment: "a", removeFirstComment: true } },
      "First Comment and Remove First Comment are both set",
    ],
    [
      { updateFields: { removeThread: true }, thread: { part: [{ caption: "p" }] } },
      "Thread and Remove Thread are both set",
    ],
    [
      { updateFields: { removePoll: true }, poll: { settings: { choices: "a\nb", durationMinutes: 5 } } },
      "Poll and Remove Poll are both set",
    ],
    [
      { updateFields: { removeNetworkOptions: true }, xOptions: { reply_settings: "verified" } },
      "A network's options and Remove Network Options are both set",
    ],
    [
      {
        updateFields: { removeMedia: true },
        mediaItems: { item: [{ source: "url", url: "https://example.com/a.png" }] },
      },
      "Media Items and Media (or Remove Media) are both set",
    ],
  ])(
    "refuses a field given and removed at once before calling the service (%#)",
    async (parameters, message) => {
      service = await inProcessService();
      const error = await failSocialPublish(options(update("post_x", parameters)));
      expect(error.message).toBe(message);
      expect(service.http.requests).toHaveLength(0);
    },
  );
});

describe("rich posts: the node's fields", () => {
  const { properties } = new SocialPublish().description;
  const field = (operation: string, name: string) =>
    properties.find((p) => p.name === name && p.displayOptions?.show?.operation?.[0] === operation)!;

  it("offers each network's options as a collection with the contract's option names", () => {
    for (const [network, schema] of Object.entries(NETWORK_OPTION_SCHEMAS)) {
      const collection = field("create", `${network}Options`);
      const names = ((collection.options ?? []) as INodeProperties[]).map((option) => option.name).sort();
      expect(names, network).toEqual(Object.keys(schema.shape).sort());
    }
  });

  it("shows a network's options on Create when that network is picked, or when Networks is an expression", () => {
    const description = new SocialPublish().description;
    const shown = (networks: string | string[]) =>
      NodeHelpers.displayParameter(
        { resource: "post", operation: "create", networks },
        field("create", "youtubeOptions"),
        { typeVersion: 1 },
        description,
      );
    expect(shown(["x", "youtube"])).toBe(true);
    expect(shown(["x", "linkedin"])).toBe(false);
    expect(shown("={{ $json.networks }}")).toBe(true);
  });

  it("offers the rich fields on Create, Validate, Schedule and Update", () => {
    for (const operation of ["create", "validate", "schedule", "update"]) {
      for (const name of ["mediaItems", "thread", "poll", "xOptions"]) {
        expect(field(operation, name), `${operation}.${name}`).toBeDefined();
      }
    }
  });
});
