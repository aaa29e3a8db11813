import { NodeOperationError } from "n8n-workflow";
import { afterEach, describe, expect, it } from "vitest";
import type { ExecuteOptions } from "./support/n8n-context.mts";
import { failSocialPublish, runSocialPublish } from "./support/run-node.mts";
import { type InProcessService, inProcessService } from "./support/service.mts";

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

const create = (parameters: Record<string, unknown>) => ({
  resource: "post",
  operation: "create",
  ...parameters,
});

/** Sets a sandbox account's health, as a network would (test keys only). */
async function setHealth(platform: string, health: string): Promise<void> {
  const response = (await service.http.request(
    "socialPublishApi",
    {
      method: "POST",
      url: `${service.credentials.baseUrl}/sandbox/accounts/${platform}`,
      body: { health },
      json: true,
      returnFullResponse: true,
      ignoreHttpStatusErrors: true,
    },
    service.credentials,
  )) as { statusCode: number };
  expect(response.statusCode).toBe(200);
}

describe("Post → Create: what published where", () => {
  it("outputs the post with each network that refused it and why, when others published", async () => {
    service = await inProcessService({
      accounts: [{ platform: "x", health: "reauth_required" }, "linkedin"],
    });
    const { output } = await runSocialPublish(
      options(create({ caption: "partly", networks: ["x", "linkedin"] })),
    );
    expect(output[0]!.json).toMatchObject({
      status: "published",
      failures: [{ platform: "x", error: expect.stringMatching(/\S/) }],
    });
    expect(output[0]!.json.failures).toHaveLength(1);
  });

  it("fails the item when no network published, with each network's reason", async () => {
    service = await inProcessService({
      accounts: [{ platform: "x", health: "reauth_required" }, "linkedin"],
    });
    const error = await failSocialPublish(options(create({ caption: "nowhere", networks: ["x"] })));
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toMatch(/^Post post_\S+ published on no network$/);
    expect(String(error.description)).toMatch(/^x: .+\. The post is kept as a draft/);
  });

  it("with Continue On Fail, keeps the post id and each network's reason in the error item", async () => {
    service = await inProcessService({
      accounts: [{ platform: "x", health: "reauth_required" }, "linkedin"],
    });
    const { output } = await runSocialPublish(
      options(
        [
          create({ caption: "nowhere", networks: ["x"] }),
          create({ caption: "fine", networks: ["linkedin"] }),
        ],
        {
          items: [{ json: {} }, { json: {} }],
          continueOnFail: true,
        },
      ),
    );
    expect(output[0]).toEqual({
      json: {
        error: expect.stringMatching(/published on no network$/),
        description: expect.any(String),
        post_id: expect.stringMatching(/^post_/),
        request_id: expect.any(String),
        failures: [{ platform: "x", error: expect.any(String) }],
      },
      pairedItem: { item: 0 },
    });
    expect(output[1]!.json).toMatchObject({ status: "published", failures: [] });
  });

  it("with Continue (using error output), keeps the post id and each network's reason under details", async () => {
    service = await inProcessService({
      accounts: [{ platform: "x", health: "reauth_required" }, "linkedin"],
    });
    const { output } = await runSocialPublish(
      options(create({ caption: "nowhere", networks: ["x"] }), {
        continueOnFail: true,
        node: { onError: "continueErrorOutput" },
      }),
    );
    // Only error and details, so n8n sends the item to the error output and keeps it whole.
    expect(output[0]).toEqual({
      json: {
        error: expect.stringMatching(/published on no network$/),
        details: {
          description: expect.any(String),
          post_id: expect.stringMatching(/^post_/),
          request_id: expect.any(String),
          failures: [{ platform: "x", error: expect.any(String) }],
        },
      },
      pairedItem: { item: 0 },
    });
  });

  it("with Continue On Fail, keeps the service's status and request id of a refused request", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish(
      options({ resource: "post", operation: "get", postId: "post_missing" }, { continueOnFail: true }),
    );
    expect(output[0]!.json).toEqual({
      error: "Post not found.",
      description: expect.stringMatching(/^Request id: \S+$/),
      http_status: 404,
      request_id: expect.any(String),
    });
    expect(output[0]!.json.description).toBe(`Request id: ${output[0]!.json.request_id}`);
  });

  it("a retry after the cause is fixed publishes the draft the first attempt left, once", async () => {
    service = await inProcessService({
      accounts: [{ platform: "x", health: "reauth_required" }, "linkedin"],
    });
    const parameters = create({ caption: "fix then retry", networks: ["x"] });
    const first = await runSocialPublish(options(parameters, { continueOnFail: true, executionId: "70" }));
    const postId = first.output[0]!.json.post_id;
    expect(postId).toMatch(/^post_/);
    await setHealth("x", "healthy");
    // Executions → Retry: a new execution carrying the node's context, so the same key.
    const retried = await runSocialPublish(
      options(parameters, { executionId: "71", nodeContext: structuredClone(first.nodeContext) }),
    );
    expect(retried.output[0]!.json).toMatchObject({ id: postId, status: "published", failures: [] });
    // And once more: the post is published, so the answer is the post as it is, not a second publication.
    const again = await runSocialPublish(
      options(parameters, { executionId: "72", nodeContext: structuredClone(first.nodeContext) }),
    );
    expect(again.output[0]!.json).toMatchObject({ id: postId, status: "published" });
    const all = await runSocialPublish(
      options({ resource: "post", operation: "getAll", returnAll: true, filters: {} }),
    );
    expect(all.output).toHaveLength(1);
  });
});

describe("default idempotency keys", () => {
  it("differ between two n8n databases that share the encryption key, for the same execution id and item", async () => {
    service = await inProcessService();
    const parameters = create({ caption: "same everywhere", networks: ["x"] });
    // Same instance id (n8n derives it from the encryption key), workflow id and execution id: two
    // fresh databases, such as staging and production, or a restored backup.
    await runSocialPublish(options(parameters, { executionId: "1", instanceId: "shared" }));
    await runSocialPublish(options(parameters, { executionId: "1", instanceId: "shared" }));
    const keys = service.http.to("POST", "/posts").map((request) => request.headers["idempotency-key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
    const all = await runSocialPublish(
      options({ resource: "post", operation: "getAll", returnAll: true, filters: {} }),
    );
    expect(all.output).toHaveLength(2);
  });
});

describe("Post → Publish", () => {
  it("publishes a draft now, and answers a repeat with the published post", async () => {
    service = await inProcessService();
    const draft = await runSocialPublish(
      options(create({ caption: "later", networks: ["x"], publish: "draft" })),
    );
    expect(draft.output[0]!.json).toMatchObject({ status: "draft", published_at: null });
    const postId = draft.output[0]!.json.id;
    const published = await runSocialPublish(options({ resource: "post", operation: "publish", postId }));
    expect(published.output[0]!.json).toMatchObject({ id: postId, status: "published", failures: [] });
    const repeated = await runSocialPublish(options({ resource: "post", operation: "publish", postId }));
    expect(repeated.output[0]!.json).toMatchObject({ id: postId, status: "published" });
  });

  it("refuses a scheduled post with the service's message", async () => {
    service = await inProcessService();
    const scheduled = await runSocialPublish(
      options(
        create({
          caption: "queued",
          networks: ["x"],
          publish: "schedule",
          scheduleAt: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      ),
    );
    const error = await failSocialPublish(
      options({ resource: "post", operation: "publish", postId: scheduled.output[0]!.json.id }),
    );
    expect(error.message).toBe("Only a draft can be published; this post is scheduled.");
  });
});

describe("Post → Schedule", () => {
  it("queues a post at the next best slot, at least 5 minutes ahead", async () => {
    service = await inProcessService();
    const before = Date.now();
    const { output } = await runSocialPublish(
      options({
        resource: "post",
        operation: "schedule",
        caption: "best time",
        networks: ["x"],
        when: "next",
      }),
    );
    expect(output[0]!.json).toMatchObject({ status: "scheduled", platforms: ["x"] });
    expect(output[0]!.json.scheduled_at).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect(service.http.to("POST", "/schedule")[0]!.body).toEqual({
      caption: "best time",
      platforms: ["x"],
      at: "next",
    });
  });

  it("queues a post at a given time", async () => {
    service = await inProcessService();
    const at = Date.now() + 2 * 3_600_000;
    const { output } = await runSocialPublish(
      options({
        resource: "post",
        operation: "schedule",
        caption: "at a time",
        networks: ["x"],
        when: "at",
        scheduleAt: new Date(at).toISOString(),
      }),
    );
    expect(output[0]!.json).toMatchObject({ status: "scheduled", scheduled_at: at });
  });
});

describe("Media → Upload", () => {
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  );

  it("uploads a binary file and outputs its med_ id, which a post takes as media", async () => {
    service = await inProcessService({ accounts: ["x", "instagram"] });
    const { output } = await runSocialPublish(
      options(
        { resource: "media", operation: "upload", source: "binary", binaryPropertyName: "data" },
        { items: [{ json: {}, binary: { data: { data: png.toString("base64"), mimeType: "image/png" } } }] },
      ),
    );
    expect(output[0]!.json).toMatchObject({
      id: expect.stringMatching(/^med_/),
      type: "image/png",
      size: png.length,
    });
    const post = await runSocialPublish(
      options(
        create({ caption: "", networks: ["instagram"], mediaSource: "url", mediaUrl: output[0]!.json.id }),
      ),
    );
    expect(post.output[0]!.json).toMatchObject({ status: "published", has_media: true });
  });

  it("registers media by URL", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish(
      options({
        resource: "media",
        operation: "upload",
        source: "url",
        url: " https://example.com/a.mp4 ",
        options: {},
      }),
    );
    expect(output[0]!.json).toMatchObject({ id: expect.stringMatching(/^med_/), type: "video/mp4" });
    expect(service.http.to("POST", "/media")[0]!.body).toEqual({ url: "https://example.com/a.mp4" });
  });
});

describe("Account → Disconnect", () => {
  it("disconnects the network's account", async () => {
    service = await inProcessService({ accounts: ["x", "linkedin"] });
    const { output } = await runSocialPublish(
      options({ resource: "account", operation: "disconnect", platform: "x" }),
    );
    expect(output[0]!.json).toEqual({ deleted: true, id: "x" });
    const accounts = await runSocialPublish(options({ resource: "account", operation: "getAll" }));
    expect(accounts.output.map((item) => item.json.platform)).toEqual(["linkedin"]);
  });
});
