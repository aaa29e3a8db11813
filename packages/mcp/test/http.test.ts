import type { Post } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningHttpServer, startHttpServer } from "../src/index.ts";
import { call, callOk, connectHttp } from "./support/mcp-clients.ts";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.ts";

const UNKNOWN_KEY = `sp_test_${"1".repeat(40)}`;

let api: ReferenceServer;
let mcp: RunningHttpServer;
const logged: string[] = [];

beforeAll(async () => {
  api = await startReferenceServer();
  mcp = await startHttpServer({ baseUrl: api.baseUrl, port: 0, log: (line) => logged.push(line) });
});
afterAll(async () => {
  await mcp?.close();
  for (const line of logged) expect(line).not.toContain(api.apiKey);
  await api?.stop();
});

describe("@socialpub/mcp over Streamable HTTP", () => {
  it("serves tools with the key each request brings: publish, schedule, cancel, one post per retried call", async () => {
    const agent = await connectHttp(mcp.url, api.apiKey);
    try {
      const { tools } = await agent.listTools();
      expect(tools.map((t) => t.name)).toContain("publish_post");

      const args = { caption: "From a remote agent", platforms: ["x", "linkedin"] };
      const post = await callOk<Post>(agent, "publish_post", args);
      expect(post.status).toBe("published");
      expect((await callOk<Post>(agent, "publish_post", args)).id).toBe(post.id);
      const { data } = await callOk<{ data: Post[] }>(agent, "list_posts", {
        status: ["published"],
        limit: 100,
      });
      expect(data.filter((p) => p.caption === args.caption)).toHaveLength(1);

      const later = await callOk<Post>(agent, "schedule_post", {
        caption: "Remote, later",
        platforms: ["bluesky"],
        at: Math.floor(Date.now() / 1000) + 3600,
      });
      expect(later.status).toBe("scheduled");
      expect(await callOk(agent, "delete_post", { post_id: later.id })).toEqual({
        deleted: true,
        id: later.id,
      });
    } finally {
      await agent.close();
    }
  });

  it("validate_post checks a post without publishing it; retry_post with nothing failed is a tool error", async () => {
    const agent = await connectHttp(mcp.url, api.apiKey);
    try {
      const checked = await callOk<{ targets: { platform: string; parts: { text: string }[] }[] }>(
        agent,
        "validate_post",
        {
          caption: "Checked remotely",
          captions: { bluesky: "Checked, Bluesky" },
          platforms: ["x", "bluesky"],
        },
      );
      expect(checked.targets.map((t) => [t.platform, t.parts[0]!.text])).toEqual([
        ["x", "Checked remotely"],
        ["bluesky", "Checked, Bluesky"],
      ]);
      // A thread: each network that threads gets its parts, the others one post; the first comment too.
      const thread = await callOk<{
        targets: { platform: string; parts: { text: string }[]; first_comment: string | null }[];
      }>(agent, "validate_post", {
        caption: "Part one",
        thread: [{ caption: "Part two" }],
        first_comment: "Notes: https://example.com",
        platforms: ["bluesky", "linkedin"],
      });
      expect(thread.targets.map((t) => [t.platform, t.parts.map((p) => p.text), t.first_comment])).toEqual([
        ["bluesky", ["Part one", "Part two"], "Notes: https://example.com"],
        ["linkedin", ["Part one\n\nPart two"], "Notes: https://example.com"],
      ]);
      const { data } = await callOk<{ data: Post[] }>(agent, "list_posts", { limit: 100 });
      expect(data.filter((p) => p.caption === "Checked remotely")).toEqual([]);

      const post = await callOk<Post>(agent, "publish_post", { caption: "All out", platforms: ["x"] });
      const retried = await call(agent, "retry_post", { post_id: post.id });
      expect(retried.isError).toBe(true);
      expect(retried.text).toContain("No network has failed for this post");
    } finally {
      await agent.close();
    }
  });

  it("answers 401 with what to send when a request has no key or a malformed one", async () => {
    for (const authorization of [undefined, "Bearer not-a-key", `Basic ${api.apiKey}`]) {
      const response = await fetch(mcp.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toContain("Authorization: Bearer sp_test_");
      expect(JSON.stringify(body)).not.toContain(api.apiKey);
    }
    await expect(connectHttp(mcp.url, null)).rejects.toThrow();
  });

  it("a key the service does not know gives a tool error that says which key to check", async () => {
    const agent = await connectHttp(mcp.url, UNKNOWN_KEY);
    try {
      const result = await call(agent, "publish_post", { caption: "Nope", platforms: ["x"] });
      expect(result.isError).toBe(true);
      expect(result.text).toContain("Invalid or revoked API key.");
      expect(result.text).toContain("Authorization: Bearer");
      expect(result.text).not.toContain(UNKNOWN_KEY);
    } finally {
      await agent.close();
    }
  });

  it("is stateless: only POST to /mcp", async () => {
    const get = await fetch(mcp.url, { headers: { authorization: `Bearer ${api.apiKey}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const elsewhere = await fetch(new URL("/other", mcp.url), { method: "POST" });
    expect(elsewhere.status).toBe(404);
  });
});
