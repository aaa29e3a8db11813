import { spawn } from "node:child_process";
import type { Post } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connectStdio, type StdioConnection } from "./support/mcp-clients.ts";
import { binOf, type ReferenceServer, startReferenceServer } from "./support/reference-server.ts";

const UNKNOWN_KEY = `sp_test_${"0".repeat(40)}`;

let server: ReferenceServer;
let mcp: StdioConnection;
const seen: string[] = [];

beforeAll(async () => {
  server = await startReferenceServer();
  mcp = await connectStdio({ SOCIALPUB_API_KEY: server.apiKey, SOCIALPUB_BASE_URL: server.baseUrl });
});
afterAll(async () => {
  await mcp?.close();
  // Nothing the server said on stderr, nor any tool answer, carries the key.
  expect(mcp.stderr()).not.toContain(server.apiKey);
  for (const text of seen) expect(text).not.toContain(server.apiKey);
  await server?.stop();
});

async function ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await call(mcp.client, name, args);
  seen.push(result.text);
  if (result.isError) throw new Error(`${name} failed: ${result.text}`);
  return JSON.parse(result.text) as T;
}

describe("@socialpub/mcp over stdio, started as an MCP client's configuration starts it", () => {
  it("lists the tools with their hints", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "publish_post",
      "schedule_post",
      "validate_post",
      "list_posts",
      "get_post",
      "get_post_results",
      "retry_post",
      "edit_post",
      "delete_post",
      "list_accounts",
      "get_analytics",
      "upload_media",
      "get_usage",
    ]);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("publish_post")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get("delete_post")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get("retry_post")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get("retry_post")?.inputSchema.properties).toHaveProperty("idempotency_key");
    expect(byName.get("validate_post")?.inputSchema.properties).not.toHaveProperty("idempotency_key");
    for (const name of [
      "validate_post",
      "list_posts",
      "get_post",
      "get_post_results",
      "list_accounts",
      "get_analytics",
      "get_usage",
    ])
      expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(true);
  });

  it("publishes now, and each network's result is readable", async () => {
    const post = await ok<Post>("publish_post", {
      caption: "Published through MCP",
      platforms: ["x", "bluesky"],
    });
    expect(post).toMatchObject({ status: "published", platforms: ["x", "bluesky"] });
    const { data } = await ok<{ data: { platform: string; status: string; text: string }[] }>(
      "get_post_results",
      {
        post_id: post.id,
      },
    );
    expect(data.map((t) => [t.platform, t.status, t.text])).toEqual([
      ["x", "published", "Published through MCP"],
      ["bluesky", "published", "Published through MCP"],
    ]);
    expect(await ok<Post>("get_post", { post_id: post.id })).toEqual(post);
  });

  it("a retried publish_post makes one post; a new idempotency_key makes another on purpose", async () => {
    const args = { caption: "Sent twice by a client that retries", platforms: ["linkedin"] };
    const first = await ok<Post>("publish_post", args);
    const retried = await ok<Post>("publish_post", { platforms: ["linkedin"], caption: args.caption });
    expect(retried.id).toBe(first.id);
    const { data } = await ok<{ data: Post[] }>("list_posts", { limit: 100 });
    expect(data.filter((p) => p.caption === args.caption)).toHaveLength(1);

    const again = await ok<Post>("publish_post", { ...args, idempotency_key: "second-announcement" });
    expect(again.id).not.toBe(first.id);
  });

  it("validate_post answers what each network would get and publishes nothing; a post it would refuse is a tool error", async () => {
    const caption = `${"A long thought about threads. ".repeat(12)}The end.`;
    const checked = await ok<{
      valid: boolean;
      targets: { platform: string; parts: { text: string }[]; notes: string[] }[];
    }>("validate_post", { caption, platforms: ["x", "linkedin"] });
    expect(checked.valid).toBe(true);
    expect(checked.targets.map((t) => t.platform)).toEqual(["x", "linkedin"]);
    expect(checked.targets[0]!.notes[0]).toMatch(
      /^text shortened from 368 to \d+ characters as X counts them/,
    );
    expect(checked.targets[1]).toMatchObject({ parts: [{ text: caption }], notes: [] });
    const { data } = await ok<{ data: Post[] }>("list_posts", { limit: 100 });
    expect(data.filter((p) => p.caption === caption)).toEqual([]);

    const refused = await call(mcp.client, "validate_post", {
      caption: "Picture needed",
      platforms: ["instagram"],
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("HTTP 400");
  });

  it("retry_post sends again a network that failed, once its account is reconnected; with nothing failed, a tool error says so", async () => {
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${server.apiKey}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await api("POST", "/sandbox/accounts/bluesky", { health: "reauth_required" })).status).toBe(200);
    const post = await ok<Post>("publish_post", {
      caption: "Half of it got out",
      platforms: ["x", "bluesky"],
    });
    const results = () =>
      ok<{ data: { platform: string; status: string }[] }>("get_post_results", { post_id: post.id });
    expect((await results()).data.map((t) => t.status)).toEqual(["published", "failed"]);

    expect((await api("POST", "/accounts/connect", { platform: "bluesky" })).status).toBe(200);
    const retried = await ok<Post>("retry_post", { post_id: post.id });
    expect(retried).toMatchObject({ id: post.id, status: "published" });
    expect((await results()).data.map((t) => t.status)).toEqual(["published", "published"]);

    // Nothing failed any more: the service says so, and nothing is sent.
    const again = await call(mcp.client, "retry_post", { post_id: post.id });
    expect(again.isError).toBe(true);
    expect(again.text).toContain("No network has failed");
    expect(again.text).toContain("HTTP 409");
  });

  it("schedules for a time and the next slot, edits, and cancels", async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await ok<Post>("schedule_post", { caption: "Later", platforms: ["x"], at: inAnHour });
    expect(scheduled.status).toBe("scheduled");
    expect(scheduled.scheduled_at).toBe(Date.parse(inAnHour));

    const next = await ok<Post>("schedule_post", {
      caption: "At the best time",
      platforms: ["linkedin"],
      at: "next",
    });
    expect(next.status).toBe("scheduled");
    expect(next.scheduled_at).toBeGreaterThan(Date.now());

    const edited = await ok<Post>("edit_post", { post_id: scheduled.id, caption: "Later, edited" });
    expect(edited).toMatchObject({ caption: "Later, edited", status: "scheduled" });
    // Back to the first text, then the edit again: each runs, none replays an older answer.
    expect((await ok<Post>("edit_post", { post_id: scheduled.id, caption: "Later" })).caption).toBe("Later");
    expect((await ok<Post>("edit_post", { post_id: scheduled.id, caption: "Later, edited" })).caption).toBe(
      "Later, edited",
    );

    expect(await ok("delete_post", { post_id: scheduled.id })).toEqual({ deleted: true, id: scheduled.id });
    // A client retrying the delete gets the same answer, not a 404.
    expect(await ok("delete_post", { post_id: scheduled.id })).toEqual({ deleted: true, id: scheduled.id });
    const gone = await call(mcp.client, "get_post", { post_id: scheduled.id });
    expect(gone).toMatchObject({ isError: true });
    expect(gone.text).toContain("Post not found.");
    await ok("delete_post", { post_id: next.id });
  });

  it("lists accounts, reads analytics and usage, registers media by URL", async () => {
    const { data } = await ok<{ data: { platform: string }[] }>("list_accounts");
    expect(data.map((a) => a.platform)).toContain("bluesky");
    expect(await ok("get_analytics")).toHaveProperty("totalReach");
    expect(await ok("get_usage")).toHaveProperty("usage.api_calls_this_month");
    const media = await ok<{ id: string; type: string }>("upload_media", {
      url: "https://example.com/cat.png",
    });
    expect(media).toMatchObject({ type: "image/png" });
    const post = await ok<Post>("publish_post", {
      caption: "With a cat",
      platforms: ["instagram"],
      media: media.id,
    });
    expect(post).toMatchObject({ has_media: true, platforms: ["instagram"] });
  });

  it("answers the service's own message as a tool error, and names a wrong argument", async () => {
    const refused = await call(mcp.client, "publish_post", {
      caption: "Picture needed",
      platforms: ["instagram"],
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/instagram/i);
    expect(refused.text).toContain("HTTP 400");
    expect(refused.text).not.toMatch(/\bat .*\.ts:\d+/); // no stack

    const misspelt = await call(mcp.client, "publish_post", { text: "Hello", platforms: ["twitter"] });
    expect(misspelt.isError).toBe(true);
    expect(misspelt.text).toContain('Unrecognized key: "text"');
    expect(misspelt.text).toContain("platforms.0");
  });

  it("offers each network's rules and the connected networks as resources", async () => {
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([
        "socialpub://accounts",
        "socialpub://networks/rules",
        "socialpub://networks/x/rules",
      ]),
    );
    const x = await mcp.client.readResource({ uri: "socialpub://networks/x/rules" });
    expect(JSON.parse((x.contents[0] as { text: string }).text)).toMatchObject({
      id: "x",
      text_limit: 280,
      length_unit: "weighted",
    });
    const accounts = await mcp.client.readResource({ uri: "socialpub://accounts" });
    expect((accounts.contents[0] as { text: string }).text).toContain("bluesky");
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["announce_release", "thread_from_text", "fit_to_networks"]);
    const thread = await mcp.client.getPrompt({
      name: "thread_from_text",
      arguments: { text: "A long story.", networks: "x, bluesky" },
    });
    expect(JSON.stringify(thread.messages)).toContain("validate_post");
    const prompt = await mcp.client.getPrompt({
      name: "announce_release",
      arguments: { product: "socialpub", version: "1.4.0", notes: "MCP server" },
    });
    expect(JSON.stringify(prompt.messages)).toContain("socialpub://networks/rules");
  });
});

describe("@socialpub/mcp over stdio with a wrong configuration", () => {
  it("a key the service does not know gives a tool error that says to check SOCIALPUB_API_KEY", async () => {
    const wrong = await connectStdio({ SOCIALPUB_API_KEY: UNKNOWN_KEY, SOCIALPUB_BASE_URL: server.baseUrl });
    try {
      const result = await call(wrong.client, "list_accounts");
      expect(result.isError).toBe(true);
      expect(result.text).toContain("Invalid or revoked API key.");
      expect(result.text).toContain("SOCIALPUB_API_KEY");
      expect(result.text).not.toContain(UNKNOWN_KEY);
      expect(wrong.stderr()).not.toContain(UNKNOWN_KEY);
    } finally {
      await wrong.close();
    }
  });

  it("without a key it does not start, and says what to set", async () => {
    const child = spawn(process.execPath, [binOf("@socialpub/mcp", "socialpub-mcp")], {
      env: { PATH: process.env.PATH ?? "", SOCIALPUB_BASE_URL: server.baseUrl },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("SOCIALPUB_API_KEY is not set");
    expect(stderr).not.toContain("    at ");
  });
});
