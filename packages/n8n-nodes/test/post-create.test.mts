import { NodeApiError, NodeOperationError } from "n8n-workflow";
import { afterEach, describe, expect, it } from "vitest";
import { MEDIA_RULES } from "../nodes/SocialPublish/resources/post/content.ts";
import { failSocialPublish, runSocialPublish } from "./support/run-node.mts";
import { type InProcessService, inProcessService } from "./support/service.mts";

let service: InProcessService;
afterEach(async () => {
  await service?.close();
});

const create = (parameters: Record<string, unknown>) => ({
  resource: "post",
  operation: "create",
  ...parameters,
});
const POST_KEYS = [
  "caption",
  "engagement_rate",
  "failures",
  "has_media",
  "id",
  "platforms",
  "published_at",
  "reach",
  "scheduled_at",
  "status",
];

async function postCount(): Promise<number> {
  const run = await runSocialPublish({
    http: service.http,
    credentials: service.credentials,
    parameters: { resource: "post", operation: "getAll", returnAll: true, filters: {} },
  });
  return run.output.length;
}

describe("Post → Create", () => {
  it("publishes now and outputs the post exactly as the contract shapes it, paired with its input item", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({ caption: "Hello from n8n", networks: ["x", "linkedin"], publish: "now" }),
    });
    expect(output).toHaveLength(1);
    expect(Object.keys(output[0]!.json).sort()).toEqual(POST_KEYS);
    expect(output[0]!.json).toMatchObject({
      caption: "Hello from n8n",
      platforms: ["x", "linkedin"],
      status: "published",
      scheduled_at: null,
      failures: [],
    });
    expect(output[0]!.pairedItem).toEqual({ item: 0 });
  });

  it("creates one post per input item, each paired with its item and sent with its own idempotency key", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      items: [{ json: { title: "one" } }, { json: { title: "two" } }],
      parameters: [
        create({ caption: "first", networks: ["x"] }),
        create({ caption: "second", networks: ["bluesky"] }),
      ],
    });
    expect(output.map((item) => [item.json.caption, item.pairedItem])).toEqual([
      ["first", { item: 0 }],
      ["second", { item: 1 }],
    ]);
    const keys = service.http.to("POST", "/posts").map((request) => request.headers["idempotency-key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^n8n-[0-9a-f]{40}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it("accepts networks from an expression as a comma-separated string", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({ caption: "csv", networks: " x, bluesky ,x" }),
    });
    expect(output[0]!.json.platforms).toEqual(["x", "bluesky"]);
  });

  it("never posts twice when n8n retries the node or the failed execution: the derived key repeats", async () => {
    service = await inProcessService();
    const parameters = create({ caption: "retry me", networks: ["x"] });
    const first = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters,
      executionId: "500",
    });
    // Retry On Fail runs the node again in the same execution, with the same node context.
    const sameExecution = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters,
      executionId: "500",
      nodeContext: first.nodeContext,
    });
    // "Retry" of a failed execution starts a new execution that carries over the old context.
    const retriedExecution = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters,
      executionId: "501",
      nodeContext: structuredClone(first.nodeContext),
    });
    const keys = service.http.to("POST", "/posts").map((request) => request.headers["idempotency-key"]);
    expect(new Set(keys).size).toBe(1);
    expect(sameExecution.output[0]!.json.id).toBe(first.output[0]!.json.id);
    expect(retriedExecution.output[0]!.json.id).toBe(first.output[0]!.json.id);
    expect(await postCount()).toBe(1);
  });

  it("creates a new post in a new execution of the same workflow", async () => {
    service = await inProcessService();
    const parameters = create({ caption: "daily", networks: ["x"] });
    const first = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters,
      executionId: "600",
    });
    const second = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters,
      executionId: "601",
    });
    expect(second.output[0]!.json.id).not.toBe(first.output[0]!.json.id);
    expect(await postCount()).toBe(2);
  });

  it("sends a given idempotency key as it is, and refuses one the service would not accept before calling it", async () => {
    service = await inProcessService();
    await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({
        caption: "keyed",
        networks: ["x"],
        options: { idempotencyKey: "release-v1.2.3" },
      }),
    });
    expect(service.http.to("POST", "/posts")[0]!.headers["idempotency-key"]).toBe("release-v1.2.3");

    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({ caption: "keyed", networks: ["x"], options: { idempotencyKey: "clé" } }),
    });
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toBe("Idempotency Key may only contain printable ASCII characters");
    expect(service.http.to("POST", "/posts")).toHaveLength(1);
  });

  it("schedules at a date-time without offset read in the workflow's time zone", async () => {
    service = await inProcessService();
    const year = new Date().getUTCFullYear() + 1;
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      timezone: "Europe/Berlin",
      parameters: create({
        caption: "later",
        networks: ["x"],
        publish: "schedule",
        scheduleAt: `${year}-07-01T09:30:00`,
      }),
    });
    expect(output[0]!.json).toMatchObject({
      status: "scheduled",
      published_at: null,
      scheduled_at: Date.parse(`${year}-07-01T07:30:00Z`),
    });
  });

  it("schedules at an ISO time with an offset as that exact instant", async () => {
    service = await inProcessService();
    const at = new Date(Date.now() + 3_600_000);
    at.setUTCMilliseconds(0);
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      timezone: "America/New_York",
      parameters: create({
        caption: "zoned",
        networks: ["x"],
        publish: "schedule",
        scheduleAt: at.toISOString(),
      }),
    });
    expect(output[0]!.json.scheduled_at).toBe(at.getTime());
  });

  it("reports a time in the past with the service's own message, as a NodeApiError with status 400", async () => {
    service = await inProcessService();
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({
        caption: "too late",
        networks: ["x"],
        publish: "schedule",
        scheduleAt: "2020-01-01T00:00:00Z",
      }),
    });
    expect(error).toBeInstanceOf(NodeApiError);
    expect((error as unknown as NodeApiError).httpCode).toBe("400");
    expect(error.message).toMatch(/past/i);
  });

  it("refuses a schedule time that is not a date, naming the field, without calling the service", async () => {
    service = await inProcessService();
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({
        caption: "when?",
        networks: ["x"],
        publish: "schedule",
        scheduleAt: "next tuesday",
      }),
    });
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toMatch(/^Schedule At is invalid: "next tuesday" is not a date and time/);
    expect(service.http.requests).toHaveLength(0);
  });

  it("attaches media by URL", async () => {
    service = await inProcessService({ accounts: ["x", "instagram"] });
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({
        caption: "picture",
        networks: ["instagram"],
        mediaSource: "url",
        mediaUrl: " https://example.com/cat.png ",
      }),
    });
    expect(output[0]!.json).toMatchObject({ has_media: true, platforms: ["instagram"], status: "published" });
    expect((service.http.to("POST", "/posts")[0]!.body as { media: string }).media).toBe(
      "https://example.com/cat.png",
    );
  });

  it("uploads a binary file from the input item through POST /media and attaches its id", async () => {
    service = await inProcessService({ accounts: ["x", "instagram"] });
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
      "base64",
    );
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      items: [
        {
          json: {},
          binary: { photo: { data: png.toString("base64"), mimeType: "image/png", fileName: "dot.png" } },
        },
      ],
      parameters: create({
        caption: "a dot",
        networks: ["instagram"],
        mediaSource: "binary",
        binaryPropertyName: "photo",
      }),
    });
    const [upload] = service.http.to("POST", "/media");
    expect(upload!.headers["content-type"]).toBe("image/png");
    expect(Buffer.compare(upload!.body as Buffer, png)).toBe(0);
    expect(upload!.headers["idempotency-key"]).toMatch(/^n8n-[0-9a-f]{40}-media$/);
    const sent = service.http.to("POST", "/posts")[0]!.body as { media: string };
    expect(sent.media).toMatch(/^med_/);
    expect(output[0]!.json).toMatchObject({ has_media: true, status: "published", platforms: ["instagram"] });
  });

  it("uploads with a key of its own when the given idempotency key is 255 characters long", async () => {
    service = await inProcessService({ accounts: ["instagram"] });
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
      "base64",
    );
    // The longest key the service takes, ending in "-media" like a derived upload key would.
    const idempotencyKey = `${"r".repeat(249)}-media`;
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      items: [{ json: {}, binary: { data: { data: png.toString("base64"), mimeType: "image/png" } } }],
      parameters: create({
        caption: "a dot",
        networks: ["instagram"],
        mediaSource: "binary",
        options: { idempotencyKey },
      }),
    });
    const uploadKey = service.http.to("POST", "/media")[0]!.headers["idempotency-key"] as string;
    expect(service.http.to("POST", "/posts")[0]!.headers["idempotency-key"]).toBe(idempotencyKey);
    expect(uploadKey).not.toBe(idempotencyKey);
    expect(uploadKey.length).toBeLessThanOrEqual(255);
    expect(output[0]!.json).toMatchObject({ has_media: true, status: "published" });
  });

  it("names the missing binary field when the input item has none", async () => {
    service = await inProcessService({ accounts: ["instagram"] });
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({
        caption: "no file",
        networks: ["instagram"],
        mediaSource: "binary",
        binaryPropertyName: "photo",
      }),
    });
    expect(error.message).toContain("'photo'");
    expect(service.http.requests).toHaveLength(0);
  });

  it("passes on the service's refusal of a network that needs media", async () => {
    service = await inProcessService({ accounts: ["x", "instagram"] });
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({ caption: "text only", networks: ["instagram"] }),
    });
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error.message).toMatch(/instagram/);
  });

  it("passes on the service's refusal of an image for a network that needs a video, and says the rule", async () => {
    service = await inProcessService({ accounts: ["x", "youtube"] });
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({
        caption: "a picture",
        networks: ["x", "youtube"],
        mediaSource: "url",
        mediaUrl: "https://example.com/cat.png",
      }),
    });
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error.message).toMatch(/youtube needs a video/);
    expect(MEDIA_RULES).toMatch(/YouTube needs a video/);
  });

  it("refuses Wait Until Published for a post due after Wait Timeout, before creating anything", async () => {
    service = await inProcessService();
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({
        caption: "far ahead",
        networks: ["x"],
        publish: "schedule",
        scheduleAt: new Date(Date.now() + 3 * 3_600_000).toISOString(),
        options: { waitUntilPublished: true, waitTimeout: 10 },
      }),
    });
    expect(error.message).toBe("The post is scheduled further ahead than Wait Timeout");
    expect(service.http.to("POST", "/posts")).toHaveLength(0);
  });

  it("with Wait Until Published, outputs the post once it has published at its time", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({
        caption: "soon",
        networks: ["x", "linkedin"],
        publish: "schedule",
        scheduleAt: new Date(Date.now() + 1500).toISOString(),
        options: { waitUntilPublished: true, waitTimeout: 1 },
      }),
    });
    expect(output[0]!.json).toMatchObject({ status: "published", platforms: ["x", "linkedin"] });
    expect(output[0]!.json.published_at).toEqual(expect.any(Number));
  });

  it("with Wait Until Published, fails with each network's reason when no network published", async () => {
    service = await inProcessService({
      accounts: [{ platform: "x", health: "reauth_required" }, "linkedin"],
    });
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: create({
        caption: "doomed",
        networks: ["x"],
        publish: "schedule",
        scheduleAt: new Date(Date.now() + 1000).toISOString(),
        options: { waitUntilPublished: true, waitTimeout: 1 },
      }),
    });
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toMatch(/^Post post_\S+ published on no network$/);
    expect(String(error.description)).toMatch(/^x: /);
  });
});
