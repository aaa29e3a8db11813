import { beforeAll, describe, expect, it } from "vitest";
import type { OpenApiCheck } from "../../src/common/openapi-check.ts";
import { DiscordFake } from "../../src/discord/fake/server.ts";
import { discordSpecCheck } from "../../src/discord/fake/spec-check.ts";
import { discordAdapter } from "../../src/index.ts";
import { fakeNetwork } from "../helpers/fake-network.ts";
import { contextOf, fileOf, postOf, sessionOf } from "../helpers/session.ts";
import { startSilentServer } from "../helpers/silent-server.ts";

// Loading the OpenAPI description and compiling its validators takes a few seconds.
const network = fakeNetwork(() => DiscordFake.start(), 180_000);
const failure = network.failure;
let fake: DiscordFake;
let adapter: ReturnType<typeof discordAdapter>;

function newWebhook(name = "Release notes") {
  const webhook = fake.addWebhook({ name });
  network.secret(webhook.token);
  return webhook;
}

async function connected(name?: string) {
  const webhook = newWebhook(name);
  const account = await adapter.connect({ webhook_url: webhook.url }, contextOf());
  return { webhook, session: sessionOf(account.credentials, account.handle) };
}

beforeAll(() => {
  fake = network.fake;
  adapter = discordAdapter({ apiUrl: fake.url });
});

describe("connect", () => {
  it("fetches the webhook: its name is the handle, its server and channel are kept for permalinks", async () => {
    const webhook = newWebhook("Socialpub releases");
    const account = await adapter.connect({ webhook_url: webhook.url }, contextOf());
    expect(account).toEqual({
      handle: "Socialpub releases",
      followers: 0,
      health: "healthy",
      credentials: {
        webhook_url: `${fake.url}/api/webhooks/${webhook.id}/${webhook.token}`,
        guild_id: webhook.guildId,
        channel_id: webhook.channelId,
      },
    });
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", webhookId: webhook.id, status: 200 });
  });

  it("says a deleted webhook or a wrong token needs a new webhook (reauth)", async () => {
    const webhook = newWebhook();
    const wrongToken = await failure(() =>
      adapter.connect({ webhook_url: webhook.url.replace(/.{4}$/, "AAAA") }, contextOf()),
    );
    expect(wrongToken.kind).toBe("reauth");
    expect(wrongToken.status).toBe(401);
    expect(wrongToken.message).toContain("Invalid Webhook Token");
    fake.deleteWebhook(webhook.id);
    const deleted = await failure(() => adapter.connect({ webhook_url: webhook.url }, contextOf()));
    expect(deleted.kind).toBe("reauth");
    expect(deleted.message).toMatch(/Create a webhook in the channel's settings.*Unknown Webhook/);
  });

  it("takes webhook URLs on the configured Discord host only, and checks them before any request", async () => {
    const webhook = newWebhook();
    const before = fake.requests.length;
    const elsewhere = webhook.url.replace("127.0.0.1", "localhost");
    const offHost = await failure(() => adapter.connect({ webhook_url: elsewhere }, contextOf()));
    expect(offHost.kind).toBe("refused");
    expect(offHost.message).toMatch(/must be a Discord webhook URL on 127\.0\.0\.1:\d+/);
    const notWebhook = await failure(() =>
      adapter.connect({ webhook_url: `${fake.url}/channels/1/2` }, contextOf()),
    );
    expect(notWebhook.message).toMatch(/is not a webhook URL/);
    const missing = await failure(() => adapter.connect({}, contextOf()));
    expect(missing.message).toMatch(/webhook_url is required.*Integrations/);
    expect(fake.requests.length).toBe(before);
    const real = discordAdapter();
    const onDiscord = await failure(() => real.connect({ webhook_url: webhook.url }, contextOf()));
    expect(onDiscord.message).toMatch(/on discord\.com/);
  });

  it("passes the URL's host, never its token, through the service's address rule", async () => {
    const webhook = newWebhook();
    const seen: string[] = [];
    const context = contextOf();
    context.checkUserUrl = async (value, field) => {
      seen.push(`${field}=${value}`);
      throw new Error("webhook_url must resolve to a public address");
    };
    await expect(adapter.connect({ webhook_url: webhook.url }, context)).rejects.toThrow(/public address/);
    expect(seen).toEqual([`webhook_url=${fake.url}`]);
  });
});

describe("publish", () => {
  it("posts text as JSON with ?wait=true and links the message as discord.com/channels/{guild}/{channel}/{id}", async () => {
    const { webhook, session } = await connected();
    const published = await adapter.publish(session, postOf("Release 1.2 is out @everyone"));
    const [message] = fake.messages(webhook.id);
    expect(message).toMatchObject({ content: "Release 1.2 is out @everyone", attachments: [] });
    expect(published).toEqual({
      id: message!.id,
      permalink: `https://discord.com/channels/${webhook.guildId}/${webhook.channelId}/${message!.id}`,
    });
  });

  it("uploads a photo as multipart (payload_json + files[0]) with its alt text", async () => {
    const { webhook, session } = await connected();
    await adapter.publish(
      session,
      postOf("A photo", [fileOf("image/png", "shot.png", 4096, "A cat on a desk")]),
    );
    expect(fake.messages(webhook.id)).toMatchObject([
      {
        content: "A photo",
        attachments: [
          { filename: "shot.png", size: 4096, contentType: "image/png", description: "A cat on a desk" },
        ],
      },
    ]);
  });

  it("uploads a video, and several files in one message", async () => {
    const { webhook, session } = await connected();
    await adapter.publish(session, postOf("", [fileOf("video/mp4", "clip.mp4", 9000)]));
    const media = [
      fileOf("image/jpeg", "a.jpg"),
      fileOf("image/webp", "b.webp"),
      fileOf("video/mp4", "c.mp4"),
    ];
    await adapter.publish(session, postOf("Three", media));
    const [video, many] = fake.messages(webhook.id);
    expect(video?.attachments.map((a) => [a.filename, a.contentType])).toEqual([["clip.mp4", "video/mp4"]]);
    expect(many?.attachments.map((a) => a.filename)).toEqual(["a.jpg", "b.webp", "c.mp4"]);
  });

  it("refuses more than 10 files before sending; says which field Discord refused (50035)", async () => {
    const { webhook, session } = await connected();
    const before = fake.requests.length;
    const eleven = Array.from({ length: 11 }, (_, i) => fileOf("image/png", `${i}.png`));
    expect((await failure(() => adapter.publish(session, postOf("x", eleven)))).message).toMatch(
      /at most 10 files/,
    );
    expect(fake.requests.length).toBe(before);
    const long = await failure(() =>
      adapter.publish(session, postOf("x".repeat(2001), [fileOf("image/png", "p.png")])),
    );
    expect(long.kind).toBe("refused");
    expect(long.status).toBe(400);
    expect(long.message).toMatch(/^Discord refused the message: content: Must be 2000 or fewer in length\./);
    expect(long.message).toContain("50035 Invalid Form Body");
    await adapter.publish(session, postOf("x".repeat(2000), [fileOf("image/png", "p.png")]));
    expect(fake.messages(webhook.id)).toHaveLength(1);
  });

  it("obeys X-RateLimit-* headers: a sixth message in 2 s waits for the bucket instead of earning a 429", async () => {
    const { webhook, session } = await connected();
    for (let i = 1; i <= 6; i++) await adapter.publish(session, postOf(`message ${i}`));
    const posts = fake.requests.filter((r) => r.webhookId === webhook.id && r.method === "POST");
    expect(posts.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(posts[5]!.at - posts[0]!.at).toBeGreaterThanOrEqual(1500);
    expect(fake.messages(webhook.id)).toHaveLength(6);
  });

  it("honours a 429's retry_after (seconds, fractional): the failure carries it and the next send waits", async () => {
    const { webhook, session } = await connected();
    fake.rateLimit(webhook.id, 0.8);
    const limited = await failure(() => adapter.publish(session, postOf("too soon")));
    expect(limited.kind).toBe("retry");
    expect(limited.status).toBe(429);
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(800);
    await adapter.publish(session, postOf("after the wait"));
    const posts = fake.requests.filter((r) => r.webhookId === webhook.id && r.method === "POST");
    expect(posts.map((r) => r.status)).toEqual([429, 200]);
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(limited.retryAfterMs! - 50);
  });

  it("passes over a negative retry_after in a 429: the wait is Retry-After's, and the next send waits it", async () => {
    const { webhook, session } = await connected();
    fake.rateLimit(webhook.id, 0.8);
    fake.saidRetryAfter = -5;
    try {
      const limited = await failure(() => adapter.publish(session, postOf("odd wait")));
      expect(limited).toMatchObject({ kind: "retry", status: 429, retryAfterMs: 1000 });
      expect(limited.message).toMatch(/try again in 1\.0 s/);
    } finally {
      fake.saidRetryAfter = null;
    }
    await adapter.publish(session, postOf("after the odd wait"));
    const posts = fake.requests.filter((r) => r.webhookId === webhook.id && r.method === "POST");
    expect(posts.map((r) => r.status)).toEqual([429, 200]);
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("honours the global rate limit for every webhook, and hands long waits back without sending", async () => {
    const first = await connected();
    const second = await connected();
    // Its own adapter: the global limit it learns would hold back every other test's webhooks too.
    const limitedAdapter = discordAdapter({ apiUrl: fake.url });
    fake.limitGlobally(5);
    const limited = await failure(() => limitedAdapter.publish(first.session, postOf("one")));
    expect(limited.retryAfterMs).toBeGreaterThan(4000);
    const before = fake.requests.length;
    const other = await failure(() => limitedAdapter.publish(second.session, postOf("two")));
    expect(other.kind).toBe("retry");
    expect(other.retryAfterMs).toBeGreaterThan(3000);
    expect(fake.requests.length).toBe(before);
    fake.limitGlobally(0);
  });

  it("classifies a deleted webhook as reauth", async () => {
    const { webhook, session } = await connected();
    fake.deleteWebhook(webhook.id);
    const gone = await failure(() => adapter.publish(session, postOf("hello")));
    expect(gone.kind).toBe("reauth");
    expect(gone.status).toBe(404);
  });

  it("reports a send that got no answer as unknown, and an unreachable Discord as retry", async () => {
    const silent = await startSilentServer();
    try {
      const webhook = newWebhook();
      const session = sessionOf({
        webhook_url: webhook.url,
        guild_id: webhook.guildId,
        channel_id: webhook.channelId,
      });
      const quiet = discordAdapter({ apiUrl: silent.url });
      const sent = await failure(() => quiet.publish(session, postOf("hello", [], AbortSignal.timeout(300))));
      expect(sent.kind).toBe("unknown");
      expect(sent.message).toMatch(/may have been posted/);
    } finally {
      await silent.close();
    }
    const closed = discordAdapter({ apiUrl: silent.url });
    const webhook = newWebhook();
    const session = sessionOf({
      webhook_url: webhook.url,
      guild_id: webhook.guildId,
      channel_id: webhook.channelId,
    });
    const down = await failure(() => closed.publish(session, postOf("hello")));
    expect(down.kind).toBe("retry");
    expect(down.message).toMatch(/refused the connection/);
  });

  it("has no readMetrics or findPublished: webhooks read nothing back", () => {
    expect(adapter.readMetrics).toBeUndefined();
    expect(adapter.findPublished).toBeUndefined();
    expect(adapter.rule.textLimit).toBe(2000);
  });
});

// The check the fake runs on its traffic (openapi-backend over discord-openapi.json) catches drift:
// a request body, an answer body, answer headers or a status the description does not allow.
describe("the Discord fake's OpenAPI check", () => {
  let check: OpenApiCheck;
  beforeAll(async () => {
    check = await discordSpecCheck();
  });

  const path = "/webhooks/123456789012345678/tok";

  it("accepts what the description documents", () => {
    expect(check.operation("POST", path)?.operationId).toBe("execute_webhook");
    const body = { content: "hi", attachments: [{ id: "0", filename: "a.png", description: "alt" }] };
    expect(check.request({ method: "POST", path, query: { wait: "true" }, headers: {}, body })).toEqual([]);
    const rate = { "x-ratelimit-limit": "5", "x-ratelimit-remaining": "4", "x-ratelimit-reset-after": "1.5" };
    expect(
      check.answer("POST", path, 429, rate, { message: "m", code: 0, retry_after: 1.5, global: false }),
    ).toEqual([]);
  });

  it("flags requests and answers that stray from it", () => {
    const numericId = { content: "hi", attachments: [{ id: 0 }] };
    expect(check.request({ method: "POST", path, query: {}, headers: {}, body: numericId })).toContain(
      "execute_webhook request/requestBody/attachments/0/id must be string",
    );
    expect(
      check.request({
        method: "POST",
        path: "/channels/1/messages/2/crosspost/x",
        query: {},
        headers: {},
      })[0],
    ).toMatch(/no such operation/);
    expect(check.answer("POST", path, 200, {}, { id: "1", channel_id: "2", content: "x" })).toContain(
      "execute_webhook 200 answer body must have required property 'type'",
    );
    expect(check.answer("POST", path, 429, {}, { message: "slow down", code: 0 }).join("\n")).toMatch(
      /retry_after/,
    );
    expect(check.answer("POST", path, 200, { "x-ratelimit-remaining": "many" }, {}).join("\n")).toMatch(
      /headers\/x-ratelimit-remaining must be integer/,
    );
    expect(check.answer("GET", path, 302, {}, undefined)[0]).toMatch(
      /status 302 is not one the description lists/,
    );
  });
});

describe("the Discord fake", () => {
  it("records an accepted request that strays from the description", async () => {
    const webhook = fake.addWebhook({ name: "drift" });
    // Discord itself takes a numeric attachment id; the description says a snowflake string.
    const form = new FormData();
    form.set("payload_json", JSON.stringify({ content: "hi", attachments: [{ id: 0, filename: "a.png" }] }));
    form.set("files[0]", new Blob([new Uint8Array(10)], { type: "image/png" }), "a.png");
    const url = `${fake.url}/api/v10/webhooks/${webhook.id}/${webhook.token}?wait=true`;
    const response = await fetch(url, { method: "POST", body: form });
    expect(response.status).toBe(200);
    expect(fake.specViolations).toContain(
      "execute_webhook request/requestBody/attachments/0/id must be string",
    );
    expect(() => fake.assertSpecCompliant()).toThrow(/strays from discord-openapi.json/);
    fake.specViolations.length = 0;
  });

  it("answers Discord's errors in Discord's shapes: unknown webhook, invalid token, empty message", async () => {
    const webhook = fake.addWebhook({ name: "errors" });
    const unknown = await fetch(`${fake.url}/api/v10/webhooks/1/${webhook.token}`);
    expect([unknown.status, await unknown.json()]).toEqual([
      404,
      { code: 10015, message: "Unknown Webhook" },
    ]);
    const wrong = await fetch(`${fake.url}/api/v10/webhooks/${webhook.id}/nottoken`);
    expect([wrong.status, await wrong.json()]).toEqual([
      401,
      { code: 50027, message: "Invalid Webhook Token" },
    ]);
    const empty = await fetch(`${fake.url}/api/v10/webhooks/${webhook.id}/${webhook.token}?wait=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "" }),
    });
    expect([empty.status, await empty.json()]).toEqual([
      400,
      { code: 50006, message: "Cannot send an empty message" },
    ]);
    expect(empty.headers.get("x-ratelimit-limit")).toBe("5");
    expect(fake.specViolations).toEqual([]);
  });
});

// Runs last: every error the tests above provoked (refusals, reauth, retries, unknown outcomes).
it("no error carries the webhook token: not in its message, stack, cause or fields", () => {
  network.expectNoSecretInErrors(8, /webhooks\/\d+\//);
});
