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

async function createPosts(count: number, schedule = false): Promise<string[]> {
  const parameters = Array.from({ length: count }, (_, index) => ({
    resource: "post",
    operation: "create",
    caption: `post ${index}`,
    networks: ["x"],
    publish: schedule ? "schedule" : "now",
    scheduleAt: new Date(Date.now() + 3_600_000).toISOString(),
  }));
  const { output } = await runSocialPublish(
    options(parameters, {
      items: parameters.map(() => ({ json: {} })),
      executionId: `seed-${Math.random()}`,
    }),
  );
  return output.map((item) => item.json.id as string);
}

const getMany = (extra: Record<string, unknown>) => ({
  resource: "post",
  operation: "getAll",
  filters: {},
  ...extra,
});

describe("Post → Get", () => {
  it("outputs the post with its current status", async () => {
    service = await inProcessService();
    const [id] = await createPosts(1);
    const { output } = await runSocialPublish(
      options({ resource: "post", operation: "get", postId: ` ${id} ` }),
    );
    expect(output).toEqual([
      { json: expect.objectContaining({ id, status: "published" }), pairedItem: { item: 0 } },
    ]);
  });

  it("reports an unknown id with the service's message Post not found.", async () => {
    service = await inProcessService();
    const error = await failSocialPublish(
      options({ resource: "post", operation: "get", postId: "post_nope" }),
    );
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error.message).toBe("Post not found.");
    expect((error as unknown as NodeApiError).httpCode).toBe("404");
  });

  it("refuses an empty Post ID without calling the service", async () => {
    service = await inProcessService();
    const error = await failSocialPublish(options({ resource: "post", operation: "get", postId: "  " }));
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toBe("Post ID is empty");
    expect(service.http.requests).toHaveLength(0);
  });
});

describe("Post → Get Many", () => {
  it("returns at most Limit posts, newest first", async () => {
    service = await inProcessService();
    const ids = await createPosts(5);
    const { output } = await runSocialPublish(options(getMany({ returnAll: false, limit: 3 })));
    expect(output.map((item) => item.json.id)).toEqual(ids.reverse().slice(0, 3));
    expect(output.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
  });

  it("follows the Link header through every page with Return All", async () => {
    service = await inProcessService();
    const ids = await createPosts(130);
    const { output } = await runSocialPublish(options(getMany({ returnAll: true })));
    expect(output.map((item) => item.json.id)).toEqual([...ids].reverse());
    const pages = service.http.to("GET", "/posts");
    expect(pages).toHaveLength(2);
    expect(pages[0]!.url.searchParams.get("limit")).toBe("100");
    expect(pages[1]!.url.searchParams.get("cursor")).toBeTruthy();
  });

  it("pages past 100 when Limit is larger than a page", async () => {
    service = await inProcessService();
    await createPosts(120);
    const { output } = await runSocialPublish(options(getMany({ returnAll: false, limit: 110 })));
    expect(output).toHaveLength(110);
    const pages = service.http.to("GET", "/posts");
    expect(pages.map((page) => page.url.searchParams.get("limit"))).toEqual(["100", "10"]);
  });

  it("filters by status", async () => {
    service = await inProcessService();
    const [published] = await createPosts(1);
    const [scheduled] = await createPosts(1, true);
    const onlyScheduled = await runSocialPublish(
      options(getMany({ returnAll: true, filters: { status: ["scheduled"] } })),
    );
    expect(onlyScheduled.output.map((item) => item.json.id)).toEqual([scheduled]);
    const both = await runSocialPublish(
      options(getMany({ returnAll: true, filters: { status: ["published", "scheduled"] } })),
    );
    expect(both.output.map((item) => item.json.id)).toEqual([scheduled, published]);
    expect(service.http.to("GET", "/posts").at(-1)!.url.searchParams.get("status")).toBe(
      "published,scheduled",
    );
  });

  it("outputs nothing when there are no posts", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish(options(getMany({ returnAll: true })));
    expect(output).toEqual([]);
  });
});

describe("Post → Delete", () => {
  it("cancels a scheduled post so it never publishes, and outputs the service's answer", async () => {
    service = await inProcessService();
    const [id] = await createPosts(1, true);
    const { output } = await runSocialPublish(options({ resource: "post", operation: "delete", postId: id }));
    expect(output[0]!.json).toEqual({ deleted: true, id });
    expect(service.http.to("DELETE", `/posts/${id}`)[0]!.headers["idempotency-key"]).toMatch(/^n8n-/);
    const error = await failSocialPublish(options({ resource: "post", operation: "get", postId: id }));
    expect(error.message).toBe("Post not found.");
  });
});

describe("Post → Get Targets", () => {
  it("outputs one item per network with its result, all paired with the input item", async () => {
    service = await inProcessService();
    const created = await runSocialPublish(
      options({ resource: "post", operation: "create", caption: "fan out", networks: ["x", "bluesky"] }),
    );
    const id = created.output[0]!.json.id;
    const { output } = await runSocialPublish(
      options({ resource: "post", operation: "getTargets", postId: id }),
    );
    expect(output.map((item) => [item.json.platform, item.json.status, item.pairedItem])).toEqual([
      ["x", "published", { item: 0 }],
      ["bluesky", "published", { item: 0 }],
    ]);
    expect(output[0]!.json).toEqual(
      expect.objectContaining({ text: "fan out", permalink: expect.any(String), error: null }),
    );
  });
});
