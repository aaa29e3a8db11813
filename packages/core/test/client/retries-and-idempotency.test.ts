import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ConnectionError,
  RateLimitError,
  ServerError,
  SocialPublishClient,
  TimeoutError,
} from "../../src/client/index.ts";
import { samplePost, sampleUser } from "./helpers/sample-resources.ts";
import { ScriptedServer } from "./helpers/scripted-server.ts";

const API_KEY = "sp_test_0123456789abcdefghijklmnopqrstuv";
const server = new ScriptedServer();

function client(options: Partial<ConstructorParameters<typeof SocialPublishClient>[0]> = {}) {
  return new SocialPublishClient({
    apiKey: API_KEY,
    baseUrl: server.baseUrl,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
}

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  server.script({ status: 200, body: sampleUser() });
});

describe("retries and idempotency", () => {
  it("retries 503 then 429 with Retry-After, then succeeds, sending the same Idempotency-Key each time", async () => {
    server.script(
      { status: 503, body: { error: "Service unavailable." } },
      { status: 429, body: { error: "Too many requests." }, headers: { "retry-after": "1" } },
      { status: 201, body: samplePost() },
    );
    const post = await client().posts.create({ caption: "Hello", platforms: ["x"] });

    expect(post).toEqual(samplePost());
    expect(server.seen).toHaveLength(3);
    const keys = server.idempotencyKeys();
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(server.seen.map((r) => r.body.toString())).toEqual(
      Array(3).fill(JSON.stringify({ caption: "Hello", platforms: ["x"] })),
    );
    // Retry-After: 1 means the third attempt comes no sooner than a second after the second.
    const [, second, third] = server.seen;
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(990);
  });

  it("sends the Idempotency-Key it was given, on every retry", async () => {
    server.script(
      { status: 502, body: { error: "Bad gateway." } },
      { status: 200, body: { deleted: true, id: "post_1" } },
    );
    await client().posts.delete("post_1", { idempotencyKey: "release-v1.2.3" });
    expect(server.idempotencyKeys()).toEqual(["release-v1.2.3", "release-v1.2.3"]);
  });

  it("sends no Idempotency-Key on GET and different keys on different writes", async () => {
    const api = client();
    server.script({ status: 201, body: samplePost() });
    await api.posts.create({ caption: "one", platforms: ["x"] });
    await api.posts.create({ caption: "two", platforms: ["x"] });
    const writes = server.idempotencyKeys();
    expect(writes[0]).toBeDefined();
    expect(writes[0]).not.toBe(writes[1]);
    server.script({ status: 200, body: samplePost() });
    await api.posts.get("post_1");
    expect(server.seen[0]!.headers["idempotency-key"]).toBeUndefined();
  });

  it("refuses an Idempotency-Key the service would reject, before sending anything", async () => {
    await expect(client().posts.create({ platforms: ["x"] }, { idempotencyKey: "" })).rejects.toThrow(
      /1 to 255 printable/,
    );
    await expect(
      client().posts.create({ platforms: ["x"] }, { idempotencyKey: "x".repeat(256) }),
    ).rejects.toThrow(TypeError);
    expect(server.seen).toHaveLength(0);
  });

  it("gives up after maxRetries and throws the last error", async () => {
    server.script({ status: 500, body: { error: "Internal error." } });
    const error = await client({ maxRetries: 3 })
      .me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).message).toBe("Internal error.");
    expect(server.seen).toHaveLength(4);
  });

  it("does not retry when maxRetries is 0, per client or per call", async () => {
    server.script({ status: 503, body: { error: "Down." } });
    await expect(client({ maxRetries: 0 }).me()).rejects.toBeInstanceOf(ServerError);
    expect(server.seen).toHaveLength(1);
    server.script({ status: 503, body: { error: "Down." } });
    await expect(client().me({ maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(server.seen).toHaveLength(1);
  });

  it.each([400, 401, 404, 405, 409, 413, 422])("does not retry %i", async (status) => {
    server.script({ status, body: { error: `Status ${status}.` } });
    await expect(client().posts.create({ platforms: ["x"] })).rejects.toMatchObject({ status });
    expect(server.seen).toHaveLength(1);
  });

  it("does not retry a 429 whose Retry-After is beyond the cap, and reports how long to wait", async () => {
    server.script({
      status: 429,
      body: { error: "The free plan's 1000 API calls this month are used up." },
      headers: { "retry-after": "86400" },
    });
    const error = await client()
      .me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(86400);
    expect(server.seen).toHaveLength(1);
  });

  it("retries a dropped connection with the same key, then succeeds", async () => {
    server.script({ drop: true }, { status: 201, body: samplePost() });
    await expect(client().posts.create({ caption: "Hello", platforms: ["x"] })).resolves.toEqual(
      samplePost(),
    );
    const keys = server.idempotencyKeys();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it("throws ConnectionError when nothing answers, after its retries", async () => {
    const closed = new ScriptedServer();
    await closed.start();
    const baseUrl = closed.baseUrl;
    await closed.stop();
    const error = await client({ baseUrl })
      .me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).status).toBeNull();
    expect((error as ConnectionError).message).toMatch(
      /Could not reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/,
    );
  });

  it("throws TimeoutError when the answer does not come in time, without retrying", async () => {
    server.script({ hang: true });
    const error = await client({ timeoutMs: 100 })
      .me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe("GET /me got no answer within 100 ms.");
    expect(server.seen).toHaveLength(1);
  });

  it("throws TimeoutError when the body stops coming after the headers", async () => {
    server.script({ hang: "after-headers" });
    const error = await client({ timeoutMs: 100 })
      .me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.seen).toHaveLength(1);
  });
});

describe("cancellation", () => {
  it("rejects with the signal's reason when aborted while the body is coming", async () => {
    server.script({ hang: "after-headers" });
    const controller = new AbortController();
    const pending = client().me({ signal: controller.signal });
    while (server.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("user cancelled"));
    await expect(pending).rejects.toThrow("user cancelled");
  });

  it("rejects with the signal's reason when aborted during a request", async () => {
    server.script({ hang: true });
    const controller = new AbortController();
    const pending = client().me({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user cancelled")), 50);
    await expect(pending).rejects.toThrow("user cancelled");
  });

  it("rejects while waiting between retries, without another attempt", async () => {
    server.script({ status: 503, body: { error: "Down." }, headers: { "retry-after": "30" } });
    const controller = new AbortController();
    const pending = client().me({ signal: controller.signal });
    while (server.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(server.seen).toHaveLength(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    await expect(client().me({ signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(server.seen).toHaveLength(0);
  });
});
