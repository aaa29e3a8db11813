import { NodeApiError, NodeOperationError } from "n8n-workflow";
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

const retry = (postId: unknown) => ({ resource: "post", operation: "retry", postId });

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

/** A post to X and LinkedIn that X refused (its account needs reauthorizing), and its id. */
async function partlyPublished(): Promise<string> {
  const { output } = await runSocialPublish(
    options({ resource: "post", operation: "create", caption: "partly", networks: ["x", "linkedin"] }),
  );
  expect(output[0]!.json).toMatchObject({ status: "published", failures: [{ platform: "x" }] });
  return output[0]!.json.id as string;
}

async function targets(postId: string) {
  const { output } = await runSocialPublish(options({ resource: "post", operation: "getTargets", postId }));
  return Object.fromEntries(output.map((item) => [item.json.platform, item.json.status]));
}

describe("Post → Retry", () => {
  it("sends again the network that failed, once its account is fixed, and outputs the post", async () => {
    service = await inProcessService({
      accounts: [{ platform: "x", health: "reauth_required" }, "linkedin"],
    });
    const id = await partlyPublished();
    await setHealth("x", "healthy");

    const { output } = await runSocialPublish(options(retry(` ${id} `)));
    expect(output).toEqual([
      {
        json: expect.objectContaining({
          id,
          status: "published",
          platforms: ["x", "linkedin"],
          failures: [],
        }),
        pairedItem: { item: 0 },
      },
    ]);
    const [sent] = service.http.to("POST", `/posts/${id}/retry`);
    expect(sent!.headers["idempotency-key"]).toMatch(/^n8n-[0-9a-f]{40}$/);
    expect(await targets(id)).toEqual({ x: "published", linkedin: "published" });
  });

  it("outputs the networks that failed again, with their reasons, when others published", async () => {
    service = await inProcessService({
      accounts: [{ platform: "x", health: "reauth_required" }, "linkedin"],
    });
    const id = await partlyPublished();
    const { output } = await runSocialPublish(options(retry(id)));
    expect(output[0]!.json).toMatchObject({
      id,
      status: "published",
      failures: [{ platform: "x", error: expect.stringMatching(/\S/) }],
    });
  });

  it("fails the item with each network's reason when the post published nowhere again", async () => {
    service = await inProcessService({
      accounts: [{ platform: "x", health: "reauth_required" }, "linkedin"],
    });
    const created = await runSocialPublish(
      options(
        { resource: "post", operation: "create", caption: "nowhere", networks: ["x"] },
        { continueOnFail: true },
      ),
    );
    const id = created.output[0]!.json.post_id as string;
    expect(id).toMatch(/^post_/);
    const error = await failSocialPublish(options(retry(id)));
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toBe(`Post ${id} published on no network`);
    expect(String(error.description)).toMatch(/^x: .+\. The post is kept as a draft/);
  });

  it("never sends twice when n8n retries the node or the execution, and sends again when the earlier retry published nowhere", async () => {
    service = await inProcessService({
      accounts: [{ platform: "x", health: "reauth_required" }, "linkedin"],
    });
    const created = await runSocialPublish(
      options(
        { resource: "post", operation: "create", caption: "nowhere", networks: ["x"] },
        { continueOnFail: true },
      ),
    );
    const id = created.output[0]!.json.post_id as string;
    // The first retry fails again: X still needs reauthorizing.
    const first = await runSocialPublish(options(retry(id), { executionId: "700", continueOnFail: true }));
    expect(first.output[0]!.json.error).toBe(`Post ${id} published on no network`);

    // Retry On Fail in the same execution: the same key, the stored answer replayed, then sent again
    // (the replayed answer is a draft); X still refuses, so it fails again.
    const again = await runSocialPublish(
      options(retry(id), { executionId: "700", nodeContext: first.nodeContext, continueOnFail: true }),
    );
    expect(again.output[0]!.json.error).toBe(`Post ${id} published on no network`);

    // X fixed, then Executions → Retry: the new execution carries the old context, so the same key.
    await setHealth("x", "healthy");
    const fixed = await runSocialPublish(
      options(retry(id), { executionId: "701", nodeContext: structuredClone(first.nodeContext) }),
    );
    expect(fixed.output[0]!.json).toMatchObject({ id, status: "published", failures: [] });

    const keys = service.http
      .to("POST", `/posts/${id}/retry`)
      .map((request) => request.headers["idempotency-key"]);
    expect(keys).toEqual([keys[0], keys[0], undefined, keys[0], undefined]);
    expect(keys[0]).toMatch(/^n8n-/);
  });

  it("replays a retry that published when n8n retries the node: nothing is sent again", async () => {
    service = await inProcessService({
      accounts: [{ platform: "x", health: "reauth_required" }, "linkedin"],
    });
    const id = await partlyPublished();
    await setHealth("x", "healthy");
    const first = await runSocialPublish(options(retry(id), { executionId: "800" }));
    const again = await runSocialPublish(
      options(retry(id), { executionId: "800", nodeContext: first.nodeContext }),
    );
    expect(again.output[0]!.json).toEqual(first.output[0]!.json);
    expect(service.http.to("POST", `/posts/${id}/retry`)).toHaveLength(2);
    expect(await targets(id)).toEqual({ x: "published", linkedin: "published" });
  });

  it("reports a post with no failed network with the service's 409, without blaming the key", async () => {
    service = await inProcessService();
    const created = await runSocialPublish(
      options({ resource: "post", operation: "create", caption: "all fine", networks: ["x"] }),
    );
    const error = await failSocialPublish(options(retry(created.output[0]!.json.id)));
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error.message).toMatch(/^No network has failed for this post/);
    expect((error as unknown as NodeApiError).httpCode).toBe("409");
    expect(String(error.description)).not.toMatch(/idempotency/i);
  });

  it("reports an unknown post with the service's 404, and an empty Post ID without calling the service", async () => {
    service = await inProcessService();
    const unknown = await failSocialPublish(options(retry("post_nope")));
    expect(unknown.message).toBe("Post not found.");
    const empty = await failSocialPublish(options(retry(" ")));
    expect(empty.message).toBe("Post ID is empty");
    expect(service.http.to("POST", "/posts/post_nope/retry")).toHaveLength(1);
    expect(service.http.requests).toHaveLength(1);
  });
});
