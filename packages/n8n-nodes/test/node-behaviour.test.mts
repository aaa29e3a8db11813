import type { INodeExecutionData, INodeProperties } from "n8n-workflow";
import { NodeApiError, NodeHelpers, NodeOperationError } from "n8n-workflow";
import { afterEach, describe, expect, it } from "vitest";
import { SocialPublish } from "../nodes/SocialPublish/SocialPublish.node.ts";
import { failSocialPublish, runSocialPublish } from "./support/run-node.mts";
import { type InProcessService, inProcessService } from "./support/service.mts";

let service: InProcessService;
afterEach(async () => {
  await service?.close();
});

const getPost = (postId: string) => ({ resource: "post", operation: "get", postId });

describe("Continue On Fail", () => {
  it("outputs an error item for the failing item, paired with it, and goes on with the others", async () => {
    service = await inProcessService();
    const created = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: { resource: "post", operation: "create", caption: "exists", networks: ["x"] },
    });
    const id = created.output[0]!.json.id as string;
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      continueOnFail: true,
      items: [{ json: {} }, { json: {} }, { json: {} }],
      parameters: [getPost(id), getPost("post_missing"), getPost(id)],
    });
    expect(output.map((item) => [item.json.id ?? item.json.error, item.pairedItem])).toEqual([
      [id, { item: 0 }],
      ["Post not found.", { item: 1 }],
      [id, { item: 2 }],
    ]);
  });

  /**
   * Where n8n 2.40.7 sends an item a node set to "Continue (using error output)" returned, and what of
   * its json is left (WorkflowExecute.handleNodeErrorOutput, then normalizeNodeErrors in
   * packages/core/src/execution-engine/workflow-execute.ts): an item carrying `error`, or whose json
   * holds only `error`, `message` and `details`, goes to the error output; an item carrying `error`
   * keeps only `{error: message}` of its json.
   */
  function routedByN8n(item: INodeExecutionData) {
    const json = item.json;
    const toErrorOutput =
      item.error !== undefined ||
      (Boolean(json.error) &&
        Object.keys(json).every((key) => ["error", "message", "details"].includes(key)));
    return {
      output: toErrorOutput ? "error" : "success",
      json: item.error ? { error: item.error.message } : json,
    };
  }

  it("with Continue (using error output), n8n sends the failed item to the error output with its details", async () => {
    service = await inProcessService();
    const created = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: { resource: "post", operation: "create", caption: "exists", networks: ["x"] },
    });
    const id = created.output[0]!.json.id as string;
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      continueOnFail: true,
      node: { onError: "continueErrorOutput" },
      items: [{ json: {} }, { json: {} }, { json: {} }],
      parameters: [getPost(id), getPost("post_missing"), getPost(id)],
    });
    expect(output.map((item) => [routedByN8n(item).output, item.pairedItem])).toEqual([
      ["success", { item: 0 }],
      ["error", { item: 1 }],
      ["success", { item: 2 }],
    ]);
    expect(routedByN8n(output[1]!).json).toEqual({
      error: "Post not found.",
      details: {
        description: expect.stringMatching(/^Request id: \S+$/),
        http_status: 404,
        request_id: expect.any(String),
      },
    });
  });

  it("with Continue (regular output), the failed item keeps its details at the top level", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      continueOnFail: true,
      node: { onError: "continueRegularOutput" },
      parameters: getPost("post_missing"),
    });
    expect(output).toEqual([
      {
        json: {
          error: "Post not found.",
          description: expect.stringMatching(/^Request id: \S+$/),
          http_status: 404,
          request_id: expect.any(String),
        },
        pairedItem: { item: 0 },
      },
    ]);
  });

  it("with Continue (using error output), an error of the node's own is routed too, as {error}", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: service.credentials,
      continueOnFail: true,
      node: { onError: "continueErrorOutput" },
      parameters: { resource: "user", operation: "fly" },
    });
    expect(output).toEqual([
      { json: { error: 'Unknown operation "fly" on "user"' }, pairedItem: { item: 0 } },
    ]);
    expect(routedByN8n(output[0]!).output).toBe("error");
  });

  it("without it, stops at the failing item and says which item failed", async () => {
    service = await inProcessService();
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      items: [{ json: {} }, { json: {} }],
      parameters: [{ resource: "user", operation: "getMe" }, getPost("post_missing")],
    });
    expect(error).toBeInstanceOf(NodeApiError);
    expect((error as unknown as NodeApiError).context.itemIndex).toBe(1);
  });
});

describe("errors from the service and the network", () => {
  it("a 5xx says the service failed, with its message and the request id", async () => {
    service = await inProcessService();
    service.http.scripted.push({
      statusCode: 503,
      headers: { "x-request-id": "req_123", "content-type": "application/json" },
      body: { error: "The store is unavailable." },
    });
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: { resource: "user", operation: "getMe" },
    });
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error.message).toBe("The store is unavailable.");
    expect(error.description).toBe(
      "The service failed: retry later, or enable Retry On Fail in the node's settings. Request id: req_123",
    );
  });

  it("a 429 passes on when to retry", async () => {
    service = await inProcessService();
    service.http.scripted.push({
      statusCode: 429,
      headers: { "retry-after": "30" },
      body: { error: "Rate limit exceeded." },
    });
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: { resource: "user", operation: "getMe" },
    });
    expect(error.message).toBe("Rate limit exceeded.");
    expect(error.description).toBe("The service asks to retry after 30 seconds.");
  });

  it("an answer without an error body still names the status", async () => {
    service = await inProcessService();
    service.http.scripted.push({ statusCode: 502, headers: {}, body: "<html>Bad gateway</html>" });
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: { resource: "user", operation: "getMe" },
    });
    expect(error.message).toBe("The service answered HTTP 502");
  });

  it("an unreachable service names the address that failed", async () => {
    service = await inProcessService();
    service.http.scripted.push(
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }),
    );
    const error = await failSocialPublish({
      http: service.http,
      credentials: service.credentials,
      parameters: { resource: "user", operation: "getMe" },
    });
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error.message).toBe("Could not reach the Social Publish API at http://service.test/api/v1");
    expect(String(error.description)).toMatch(
      /^connect ECONNREFUSED 127\.0\.0\.1:9\. Check that the service/,
    );
  });

  it("a Base URL that is not http(s) is refused before any request", async () => {
    service = await inProcessService();
    const error = await failSocialPublish({
      http: service.http,
      credentials: { ...service.credentials, baseUrl: "127.0.0.1:8787/api/v1" },
      parameters: { resource: "user", operation: "getMe" },
    });
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.message).toBe('The Base URL "127.0.0.1:8787/api/v1" is not an http(s) address');
    expect(service.http.requests).toHaveLength(0);
  });

  it("a Base URL with trailing slashes still reaches the right paths", async () => {
    service = await inProcessService();
    const { output } = await runSocialPublish({
      http: service.http,
      credentials: { ...service.credentials, baseUrl: "http://service.test/api/v1//" },
      parameters: { resource: "user", operation: "getMe" },
    });
    expect(output[0]!.json.plan).toBe("studio");
    expect(service.http.requests[0]!.url.pathname).toBe("/api/v1/me");
  });
});

describe("the node's description", () => {
  const { properties } = new SocialPublish().description;
  const selectors = properties.filter((property) => property.name === "operation");

  it("offers one operation selector per resource, each operation backed by its own handler", async () => {
    const resources = (properties.find((property) => property.name === "resource")!.options ?? []).map(
      (option) => (option as { value: string }).value,
    );
    expect(resources.sort()).toEqual(["account", "analytics", "media", "post", "user"]);
    const offered = selectors.flatMap((selector) =>
      (selector.options ?? []).map(
        (option) => `${selector.displayOptions?.show?.resource?.[0]}.${(option as { value: string }).value}`,
      ),
    );
    expect(offered.sort()).toEqual([
      "account.connect",
      "account.disconnect",
      "account.getAll",
      "analytics.get",
      "media.upload",
      "post.create",
      "post.delete",
      "post.get",
      "post.getAll",
      "post.getTargets",
      "post.publish",
      "post.retry",
      "post.schedule",
      "post.update",
      "post.validate",
      "user.getMe",
    ]);
  });

  it("labels the resources as words and shows the chosen action as the node's subtitle", () => {
    const resource = properties.find((property) => property.name === "resource")!;
    expect((resource.options ?? []).map((option) => (option as { name: string }).name)).toEqual([
      "Account",
      "Analytics",
      "Media",
      "Post",
      "User",
    ]);
    const subtitle = String(new SocialPublish().description.subtitle);
    const match =
      /^=\{\{ (\{.*\})\[\$parameter\["resource"\] \+ ":" \+ \$parameter\["operation"\]\] \}\}$/.exec(
        subtitle,
      );
    const actions = JSON.parse(match![1]!) as Record<string, string>;
    expect(actions["post:create"]).toBe("Create a post");
    expect(actions["analytics:get"]).toBe("Get analytics");
    expect(actions["media:upload"]).toBe("Upload media");
    expect(Object.keys(actions)).toHaveLength(16);
  });

  it("describes every field, so an AI agent using the node as a tool knows what to give", () => {
    // Selectors describe each option instead; collections are described by the fields they hold.
    const undescribed = (list: INodeProperties[]): string[] =>
      list.flatMap((property) => {
        if (property.type === "collection") return undescribed((property.options ?? []) as INodeProperties[]);
        if (property.type === "fixedCollection") {
          const groups = (property.options ?? []) as Array<{ values: INodeProperties[] }>;
          return groups.flatMap((group) => undescribed(group.values));
        }
        if (["resource", "operation"].includes(property.name)) {
          const options = (property.options ?? []) as Array<{ name: string; description?: string }>;
          return property.name === "operation"
            ? options.filter((option) => !option.description).map((option) => option.name)
            : [];
        }
        return property.type === "notice" || property.description ? [] : [property.name];
      });
    expect(undescribed(properties)).toEqual([]);
  });

  it("shows each operation's fields only for that resource and operation", () => {
    const fields = properties.filter((property) => !["resource", "operation"].includes(property.name));
    for (const field of fields as INodeProperties[]) {
      expect(field.displayOptions?.show?.resource, field.name).toHaveLength(1);
      expect(field.displayOptions?.show?.operation, field.name).toHaveLength(1);
    }
  });

  it("offers Wait Until Published and Wait Timeout in Create's options only when Publish is scheduled", () => {
    const description = new SocialPublish().description;
    const options = properties.find(
      (property) => property.name === "options" && property.displayOptions?.show?.operation?.[0] === "create",
    )!;
    // n8n's own rule for which options of a collection the editor offers, given the node's values.
    const offered = (publish: string) =>
      ((options.options ?? []) as INodeProperties[])
        .filter((option) =>
          NodeHelpers.displayParameter({}, option, { typeVersion: 1 }, description, {
            resource: "post",
            operation: "create",
            publish,
          }),
        )
        .map((option) => option.name);
    expect(offered("now")).toEqual(["idempotencyKey"]);
    expect(offered("schedule")).toEqual(["idempotencyKey", "waitUntilPublished", "waitTimeout"]);
  });

  it("can be used as a tool by AI agents", () => {
    expect(new SocialPublish().description.usableAsTool).toBe(true);
  });
});
