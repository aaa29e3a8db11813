// Every operation and the trigger's lifecycle over real HTTP, against the reference server started as
// a process on port 0 (`socialpub-server start --port 0 --dev --db :memory:`): its SQLite store, its
// HTTP adapter, its scheduler — what a user's n8n talks to.
import type { IDataObject } from "n8n-workflow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SocialPublishTrigger } from "../nodes/SocialPublishTrigger/SocialPublishTrigger.node.ts";
import { type Credentials, N8nHttp } from "./support/http.mts";
import { hookContext } from "./support/n8n-context.mts";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.mts";
import { failSocialPublish, runSocialPublish } from "./support/run-node.mts";

let server: ReferenceServer;
let credentials: Credentials;
const http = () => new N8nHttp((request) => fetch(request));

beforeAll(async () => {
  server = await startReferenceServer();
  credentials = { apiKey: server.apiKey, baseUrl: server.baseUrl };
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

async function run(parameters: Record<string, unknown>, executionId = String(Math.random())) {
  const { output } = await runSocialPublish({ http: http(), credentials, parameters, executionId });
  return output.map((item) => item.json);
}

describe("over HTTP against the reference server", () => {
  it("User → Get Me answers the dev user", async () => {
    const [me] = await run({ resource: "user", operation: "getMe" });
    expect(me).toMatchObject({ plan: "studio", usage: { api_calls_this_month: expect.any(Number) } });
  });

  it("Account → Get Many lists the dev user's sandbox accounts, and Connect adds one", async () => {
    const before = await run({ resource: "account", operation: "getAll" });
    expect(before.length).toBeGreaterThan(0);
    const missing = ["reddit", "pinterest", "tiktok", "youtube"].find(
      (platform) => !before.some((account) => account.platform === platform),
    );
    const [connected] = await run({
      resource: "account",
      operation: "connect",
      platform: missing,
      handle: "@e2e",
    });
    expect(connected).toMatchObject({ platform: missing, handle: "@e2e" });
    const after = await run({ resource: "account", operation: "getAll" });
    expect(after.map((account) => account.platform)).toContain(missing);
  });

  it("Post → Create, Get, Get Targets, Get Many and Delete work end to end", async () => {
    const [created] = await run({
      resource: "post",
      operation: "create",
      caption: "Over HTTP",
      networks: ["x", "linkedin"],
    });
    expect(created).toMatchObject({ status: "published", platforms: ["x", "linkedin"] });
    const [fetched] = await run({ resource: "post", operation: "get", postId: created!.id });
    const { failures, ...post } = created as Record<string, unknown>;
    expect(failures).toEqual([]);
    expect(fetched).toEqual(post);
    const targets = await run({ resource: "post", operation: "getTargets", postId: created!.id });
    expect(targets.map((target) => [target.platform, target.status])).toEqual([
      ["x", "published"],
      ["linkedin", "published"],
    ]);
    const listed = await run({
      resource: "post",
      operation: "getAll",
      returnAll: false,
      limit: 1,
      filters: {},
    });
    expect(listed.map((post) => post.id)).toEqual([created!.id]);
    const [deleted] = await run({ resource: "post", operation: "delete", postId: created!.id });
    expect(deleted).toEqual({ deleted: true, id: created!.id });
  });

  it("Post → Create with Wait Until Published returns the post once the server's scheduler published it", async () => {
    const [post] = await run({
      resource: "post",
      operation: "create",
      caption: "Scheduled over HTTP",
      networks: ["x"],
      publish: "schedule",
      scheduleAt: new Date(Date.now() + 1000).toISOString(),
      options: { waitUntilPublished: true, waitTimeout: 1 },
    });
    expect(post).toMatchObject({ status: "published", published_at: expect.any(Number) });
  });

  it("a retried execution replays the first answer instead of posting again", async () => {
    const nodeContext: IDataObject = {};
    const parameters = { resource: "post", operation: "create", caption: "Exactly once", networks: ["x"] };
    const first = await runSocialPublish({
      http: http(),
      credentials,
      parameters,
      executionId: "900",
      nodeContext,
    });
    const retry = await runSocialPublish({
      http: http(),
      credentials,
      parameters,
      executionId: "901",
      nodeContext,
    });
    expect(retry.output[0]!.json).toEqual(first.output[0]!.json);
    const posts = await run({ resource: "post", operation: "getAll", returnAll: true, filters: {} });
    expect(posts.filter((post) => post.caption === "Exactly once")).toHaveLength(1);
  });

  it("Analytics → Get answers the summary", async () => {
    const [summary] = await run({ resource: "analytics", operation: "get" });
    expect(summary).toMatchObject({ postsPublished: expect.any(Number), perPlatform: expect.any(Array) });
  });

  it("errors carry the server's message", async () => {
    const error = await failSocialPublish({
      http: http(),
      credentials,
      parameters: { resource: "post", operation: "get", postId: "post_missing" },
    });
    expect(error.message).toBe("Post not found.");
  });

  it("Social Publish Trigger subscribes, checks and unsubscribes its webhook URL", async () => {
    const staticData: IDataObject = {};
    const hooks = () =>
      hookContext({
        http: http(),
        credentials,
        webhookUrl: "http://127.0.0.1:5678/webhook/0b6f2d38-real-server/webhook",
        events: ["post.published"],
        staticData,
      }).context;
    const { default: lifecycle } = new SocialPublishTrigger().webhookMethods;
    expect(await lifecycle.checkExists.call(hooks())).toBe(false);
    expect(await lifecycle.create.call(hooks())).toBe(true);
    expect(staticData.webhookSecret).toMatch(/^whsec_/);
    expect(await lifecycle.checkExists.call(hooks())).toBe(true);
    expect(await lifecycle.delete.call(hooks())).toBe(true);
    expect(await lifecycle.checkExists.call(hooks())).toBe(false);
  });
});
