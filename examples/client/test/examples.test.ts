import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { connect } from "node:net";
import { type Post, SocialPublishClient, signWebhook, type WebhookEventOf } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.ts";
import { runExample, spawnExample } from "./support/run-example.ts";

let server: ReferenceServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startReferenceServer();
  env = { SOCIALPUB_BASE_URL: server.baseUrl, SOCIALPUB_API_KEY: server.apiKey };
});
afterAll(async () => {
  await server.close();
});

describe("publish-and-wait.ts", () => {
  it("schedules a post a second ahead, waits until it is published, and prints each network's permalink", async () => {
    const result = await runExample("publish-and-wait.ts", ["Release 1.2 is out", "1"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    // The dev user's connected networks that take text alone; instagram needs media and is left out.
    expect(result.stdout).toMatch(
      /^Scheduled post_\w+ on x, linkedin, facebook, threads, bluesky, discord, telegram for /m,
    );
    expect(result.stdout).toMatch(/^Published post_\w+ at /m);
    expect(result.stdout).toMatch(/^ {2}x: published https:\/\//m);
    expect(result.stdout).toMatch(/^ {2}bluesky: published https:\/\//m);
  });

  it("explains a wrong key instead of crashing", async () => {
    const result = await runExample("publish-and-wait.ts", [], {
      ...env,
      SOCIALPUB_API_KEY: "sp_test_00000000000000000000000000000000",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^AuthenticationError: Invalid or revoked API key\. \(status 401, request \S+\)/,
    );
  });

  it("says which variable is missing", async () => {
    const result = await runExample("publish-and-wait.ts", [], { SOCIALPUB_BASE_URL: server.baseUrl });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Set SOCIALPUB_API_KEY/);
  });
});

describe("schedule.ts", () => {
  it("schedules a post for the given time and lists it among the scheduled posts", async () => {
    const at = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
    const result = await runExample("schedule.ts", ["Webinar tomorrow", at], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const id = /^Scheduled (post_\w+) for /m.exec(result.stdout)?.[1];
    expect(id).toBeDefined();
    expect(result.stdout).toContain(`  ${id}  ${at}  Webinar tomorrow`);

    await using client = new SocialPublishClient({ apiKey: server.apiKey, baseUrl: server.baseUrl });
    const post: Post = await client.posts.get(id ?? "");
    expect(post).toMatchObject({
      status: "scheduled",
      scheduled_at: Date.parse(at),
      caption: "Webinar tomorrow",
    });
  });

  it("without a time, schedules for the next optimal slot, at least five minutes ahead", async () => {
    const startedAt = Date.now();
    const result = await runExample("schedule.ts", ["At the best time"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const when = /^Scheduled post_\w+ for (\S+) on /m.exec(result.stdout)?.[1];
    expect(Date.parse(when ?? "")).toBeGreaterThanOrEqual(startedAt + 5 * 60 * 1000);
  });

  it("schedules the post once when run twice with the same arguments", async () => {
    const at = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000).toISOString();
    const first = await runExample("schedule.ts", ["Run me twice", at], env);
    const second = await runExample("schedule.ts", ["Run me twice", at], env);
    expect([first.code, second.code]).toEqual([0, 0]);
    const idOf = (stdout: string) => /^Scheduled (post_\w+) for /m.exec(stdout)?.[1];
    expect(idOf(second.stdout)).toBe(idOf(first.stdout));
    expect(second.stdout.split("\n").filter((line) => line.includes("Run me twice"))).toHaveLength(1);
  });
});

describe("receive-webhooks.ts", () => {
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const event = sampleEvent();

  it("accepts a signed delivery once, ignores its retry, and refuses a forged one with the reason", async () => {
    const child = spawnExample("receive-webhooks.ts", [], { SOCIALPUB_WEBHOOK_SECRET: secret, PORT: "0" });
    try {
      const lines = outputLines(child.stdout);
      const listening = await lines.next((line) => line.startsWith("Listening for webhooks on "));
      const url = listening.slice("Listening for webhooks on ".length);

      const body = JSON.stringify(event);
      const deliver = (headers: Record<string, string>, payload = body) =>
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: payload,
        });

      const first = await deliver(signWebhook(body, secret));
      expect(first.status).toBe(204);
      expect(await lines.next((line) => line.startsWith("post.published"))).toBe(
        `post.published ${event.id}: ${event.data.post_id} on x at https://x.com/sandbox/status/1`,
      );

      const retry = await deliver(signWebhook(body, secret));
      expect(retry.status).toBe(204);
      expect(await lines.next((line) => line.startsWith("Duplicate"))).toBe(`Duplicate ${event.id} ignored`);

      const forged = await deliver(signWebhook(body, `whsec_${randomBytes(32).toString("base64")}`));
      expect(forged.status).toBe(400);
      expect((await forged.json()).error).toMatch(/No signature .* matches/);

      const unsigned = await deliver({});
      expect(unsigned.status).toBe(400);
      expect((await unsigned.json()).error).toMatch(/webhook-id header is missing/);
    } finally {
      child.kill();
      await once(child, "exit");
    }
  });
});

describe("receive-webhooks.ts with a secret it cannot use", () => {
  it("says so in one line at startup, without repeating the secret", async () => {
    const secret = "whsec_not-base64!";
    const result = await runExample("receive-webhooks.ts", [], {
      SOCIALPUB_WEBHOOK_SECRET: secret,
      PORT: "0",
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "SOCIALPUB_WEBHOOK_SECRET cannot be used: The webhook secret is not valid: expected whsec_ followed by base64, as shown when the endpoint was created.\n",
    );
    expect(result.stderr).not.toContain("not-base64");
  });
});

describe("receive-webhooks.ts when a delivery fails unexpectedly", () => {
  it("logs it and keeps receiving instead of crashing", async () => {
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    const child = spawnExample("receive-webhooks.ts", [], { SOCIALPUB_WEBHOOK_SECRET: secret, PORT: "0" });
    const errors = outputLines(child.stderr);
    try {
      const lines = outputLines(child.stdout);
      const listening = await lines.next((line) => line.startsWith("Listening for webhooks on "));
      const url = new URL(listening.slice("Listening for webhooks on ".length));

      // A sender that goes away halfway through the body: reading it fails.
      const socket = connect(Number(url.port), url.hostname);
      await once(socket, "connect");
      socket.write(
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      expect(await errors.next((line) => line.startsWith("Could not handle a delivery: "))).toMatch(
        /aborted/,
      );

      const body = JSON.stringify({ ...sampleEvent(), id: "evt_after_the_failure" });
      const after = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...signWebhook(body, secret) },
        body,
      });
      expect(after.status).toBe(204);
      expect(await lines.next((line) => line.includes("evt_after_the_failure"))).toMatch(/^post\.published /);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill();
      await once(child, "exit");
    }
  });
});

describe("receive-webhooks.ts with an API key", () => {
  it("registers itself for every event type, verifies what the server delivers, and removes its endpoint when stopped", async () => {
    const child = spawnExample("receive-webhooks.ts", [], { ...env, PORT: "0" });
    const lines = outputLines(child.stdout);
    let exited = false;
    try {
      const listening = await lines.next((line) => line.startsWith("Listening for webhooks on "));
      const url = listening.slice("Listening for webhooks on ".length);
      const registered = await lines.next((line) => line.startsWith("Registered "));
      const id = /^Registered (wh_\w+) for (\S+) \(8 event types\)$/.exec(registered);
      expect(id?.[2]).toBe(url);

      await using client = new SocialPublishClient({ apiKey: server.apiKey, baseUrl: server.baseUrl });
      expect((await client.webhooks.get(id?.[1] ?? "")).url).toBe(url);

      // The server delivers to the example, which prints an event only once its signature verified.
      const post = await client.posts.create({ caption: "Delivered end to end", platforms: ["x"] });
      const [target] = (await client.posts.targets(post.id)).data;
      const published = await lines.next(
        (line) => line.startsWith("post.published ") && line.includes(post.id),
      );
      expect(published).toMatch(/^post\.published evt_\w+: /);
      expect(published.endsWith(`: ${post.id} on x at ${target?.permalink}`)).toBe(true);
      const test = await client.webhooks.test(id?.[1] ?? "", { type: "post.failed" });
      expect(await lines.next((line) => line.startsWith(`post.failed ${test.id}:`))).toBe(
        `post.failed ${test.id}: post_test on x: This is a test event.`,
      );
      // The server records each attempt once the example's 204 has reached it.
      await expect
        .poll(async () =>
          (await client.webhooks.attempts(id?.[1] ?? "")).data.map((a) => [a.event_type, a.response_status]),
        )
        .toEqual([
          ["post.failed", 204],
          ["post.published", 204],
        ]);

      const exit = once(child, "exit");
      child.kill("SIGTERM");
      expect(await lines.next((line) => line.startsWith("Removed "))).toBe(`Removed ${id?.[1]}`);
      expect((await exit)[0]).toBe(0);
      exited = true;
      expect((await client.webhooks.list()).data.map((w) => w.id)).not.toContain(id?.[1]);
    } finally {
      if (!exited) {
        child.kill("SIGKILL");
        await once(child, "exit");
      }
    }
  });
});

function sampleEvent(): WebhookEventOf<"post.published"> {
  return {
    id: "evt_01JD3Z6Q1M8W5V0K9T2R4Y7B3C",
    type: "post.published",
    created: Math.floor(Date.now() / 1000),
    data: {
      post_id: "post_01JD3Z6Q1M8W5V0K9T2R4Y7B3D",
      platform: "x",
      status: "published",
      permalink: "https://x.com/sandbox/status/1",
      metrics: { reach: 0, likes: 0 },
    },
  };
}

/** Lines a child prints, awaited one predicate at a time. */
function outputLines(stream: NodeJS.ReadableStream | null) {
  const seen: string[] = [];
  const waiters: Array<{ match: (line: string) => boolean; resolve: (line: string) => void }> = [];
  let buffered = "";
  stream?.on("data", (chunk) => {
    buffered += chunk;
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    for (const line of parts) {
      const waiter = waiters.find((w) => w.match(line));
      if (waiter) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      } else seen.push(line);
    }
  });
  return {
    next(match: (line: string) => boolean): Promise<string> {
      const index = seen.findIndex(match);
      if (index >= 0) return Promise.resolve(seen.splice(index, 1)[0] ?? "");
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}
