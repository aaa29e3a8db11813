import type { INodePropertyOptions } from "n8n-workflow";
import { NodeApiError } from "n8n-workflow";
import { afterEach, describe, expect, it } from "vitest";
import { getConnectedNetworks } from "../nodes/SocialPublish/methods/loadOptions.ts";
import { loadOptionsContext } from "./support/n8n-context.mts";
import { failSocialPublish, runSocialPublish } from "./support/run-node.mts";
import { type InProcessService, inProcessService } from "./support/service.mts";

let service: InProcessService;
afterEach(async () => {
  await service?.close();
});

const run = (parameters: Record<string, unknown>) =>
  runSocialPublish({ http: service.http, credentials: service.credentials, parameters });

describe("Account → Get Many", () => {
  it("outputs each connected account in the contract's network order", async () => {
    service = await inProcessService({
      accounts: ["bluesky", "x", { platform: "linkedin", health: "expiring" }],
    });
    const { output } = await run({ resource: "account", operation: "getAll" });
    expect(output.map((item) => [item.json.platform, item.json.health, item.pairedItem])).toEqual([
      ["x", "healthy", { item: 0 }],
      ["linkedin", "expiring", { item: 0 }],
      ["bluesky", "healthy", { item: 0 }],
    ]);
    expect(Object.keys(output[0]!.json).sort()).toEqual(["followers", "handle", "health", "platform"]);
  });
});

describe("Account → Connect", () => {
  it("connects a sandbox account at once with the handle given", async () => {
    service = await inProcessService({ accounts: ["x"] });
    const { output } = await run({
      resource: "account",
      operation: "connect",
      platform: "threads",
      handle: "@studio",
    });
    expect(output[0]!.json).toMatchObject({ platform: "threads", handle: "@studio", health: "healthy" });
    expect(service.http.to("POST", "/accounts/connect")[0]!.headers["idempotency-key"]).toMatch(/^n8n-/);
    const accounts = await run({ resource: "account", operation: "getAll" });
    expect(accounts.output.map((item) => item.json.platform)).toEqual(["x", "threads"]);
  });
});

describe("Analytics → Get", () => {
  it("outputs the summary with camelCase fields and a per-network breakdown", async () => {
    service = await inProcessService();
    await run({ resource: "post", operation: "create", caption: "measured", networks: ["x"] });
    const { output } = await run({ resource: "analytics", operation: "get" });
    expect(output).toHaveLength(1);
    expect(output[0]!.json).toMatchObject({
      totalReach: 0,
      engagementRate: 0,
      postsPublished: 1,
      perPlatform: expect.any(Array),
    });
  });
});

describe("User → Get Me", () => {
  it("outputs the key's user with plan, limits and usage", async () => {
    service = await inProcessService();
    const { output } = await run({ resource: "user", operation: "getMe" });
    expect(output[0]!.json).toMatchObject({
      plan: "studio",
      limits: { posts_per_month: null },
      usage: { api_calls_this_month: expect.any(Number) },
    });
  });

  it("reports a bad key with the service's message and a hint about the credential, never the key", async () => {
    service = await inProcessService();
    const badKey = "sp_test_ThisKeyWasNeverIssuedByTheService0000";
    const error = await failSocialPublish({
      http: service.http,
      credentials: { ...service.credentials, apiKey: badKey },
      parameters: { resource: "user", operation: "getMe" },
    });
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error.message).toBe("Invalid or revoked API key.");
    expect(String(error.description)).toMatch(/^Check the API key in the Social Publish API credential/);
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(badKey);
  });
});

describe("Networks picker", () => {
  it("lists the networks of the connected accounts with their handles and any that need attention", async () => {
    service = await inProcessService({
      accounts: [
        { platform: "x", handle: "@studio" },
        { platform: "bluesky", handle: "studio.bsky.social", health: "reauth_required" },
      ],
    });
    const options: INodePropertyOptions[] = await getConnectedNetworks.call(
      loadOptionsContext({ http: service.http, credentials: service.credentials }),
    );
    expect(options).toEqual([
      { name: "X (@studio)", value: "x" },
      { name: "Bluesky (studio.bsky.social) — reauth required", value: "bluesky" },
    ]);
  });

  it("says how to connect an account when none is connected", async () => {
    service = await inProcessService({ accounts: [] });
    await expect(
      getConnectedNetworks.call(loadOptionsContext({ http: service.http, credentials: service.credentials })),
    ).rejects.toThrow("No connected accounts");
  });
});
