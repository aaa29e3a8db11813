import { describe, expect, it } from "vitest";
import { hashApiKey, keyHint } from "../src/keys.ts";
import { type Logger, silentLogger } from "../src/logger.ts";
import { createService, type ServiceOptions } from "../src/service/create-service.ts";
import { MemoryStore } from "../src/store/memory.ts";
import { FakeClock, provisionUser } from "../src/testing/index.ts";

/** What only an in-process test can reach: failing stores, options, and what the suite cannot stage. */
async function setup(options: Partial<ServiceOptions> = {}) {
  const store = options.store ?? new MemoryStore();
  const clock = new FakeClock();
  const { apiKey, user } = await provisionUser(store, { plan: "creator", accounts: ["x"], now: clock.now() });
  const service = createService({ store, clock, logger: silentLogger, ...options });
  const auth = { authorization: `Bearer ${apiKey}` };
  return { store, clock, service, auth, user, apiKey };
}

describe("service edges", () => {
  it("an unexpected error answers 500 Internal error (request <id>) and is logged, without a stack in the body", async () => {
    const store = new MemoryStore();
    const logged: Record<string, unknown>[] = [];
    const logger: Logger = { ...silentLogger, error: (fields) => logged.push(fields) };
    const { service, auth } = await setup({ store, logger });
    store.listAccounts = async () => {
      throw new Error("disk on fire");
    };
    const res = await service.fetch(
      new Request("http://localhost/api/v1/accounts", { headers: { ...auth, "x-request-id": "trace-1" } }),
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Internal error (request trace-1)." });
    expect(res.headers.get("x-request-id")).toBe("trace-1");
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ request_id: "trace-1", method: "GET", path: "/api/v1/accounts" });
    expect((logged[0]!.err as Error).message).toBe("disk on fire");
  });

  it("the API key never reaches the log", async () => {
    const store = new MemoryStore();
    const lines: string[] = [];
    const logger: Logger = {
      error: (f, m) => lines.push(JSON.stringify(f) + m),
      warn: (f, m) => lines.push(JSON.stringify(f) + m),
      info: (f, m) => lines.push(JSON.stringify(f) + m),
    };
    const { service, auth, apiKey } = await setup({ store, logger });
    store.authorizeCall = async () => {
      throw new Error("boom");
    };
    await service.fetch(new Request("http://localhost/api/v1/me", { headers: auth }));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("\n")).not.toContain(apiKey);
  });

  it("a declared Content-Length over the limit answers 413 without reading the body", async () => {
    const { service, auth } = await setup();
    let pulled = false;
    const body = new ReadableStream(
      {
        pull() {
          pulled = true;
          throw new Error("must not be read");
        },
      },
      { highWaterMark: 0 },
    );
    const res = await service.fetch(
      new Request("http://localhost/api/v1/posts", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "content-length": String(2 * 1024 * 1024) },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "Request body is larger than 1 MiB; send less." });
    expect(pulled).toBe(false);
  });

  it("a streamed body is refused with 413 as soon as it passes the limit, not read to the end", async () => {
    const { service, auth } = await setup({ maxBodyBytes: 1000 });
    let chunks = 0;
    const body = new ReadableStream({
      pull(controller) {
        chunks++;
        controller.enqueue(new TextEncoder().encode("a".repeat(400)));
      },
    });
    const res = await service.fetch(
      new Request("http://localhost/api/v1/posts", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "Request body is larger than 1000 bytes; send less." });
    expect(chunks).toBeLessThanOrEqual(4);
  });

  it("a body longer than the Content-Length it declares is still held to the limit (in-process requests)", async () => {
    const { service, auth } = await setup({ maxBodyBytes: 1000 });
    const res = await service.fetch(
      new Request("http://localhost/api/v1/posts", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "content-length": "10" },
        body: JSON.stringify({ caption: "a".repeat(2000), platforms: ["x"] }),
      }),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "Request body is larger than 1000 bytes; send less." });
  });

  it("a caption longer than 100,000 characters is refused with 400 naming the field, on every route that takes one", async () => {
    const { service, auth } = await setup();
    const post = (method: string, path: string, body: unknown) =>
      service.fetch(
        new Request(`http://localhost/api/v1${path}`, {
          method,
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    // Family emoji, the costliest text to adapt to a network's limit: 7 code points (characters) each.
    const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}";
    const long = family.repeat(Math.ceil(100_001 / 7));
    const at = "2030-01-01T00:00:00Z";
    const cases: [string, string, unknown, string][] = [
      ["POST", "/posts", { caption: long, platforms: ["x"] }, "caption"],
      ["POST", "/posts", { caption: "hi", captions: { x: long }, platforms: ["x"] }, "captions.x"],
      ["POST", "/schedule", { caption: long, platforms: ["x"], at }, "caption"],
      ["PATCH", "/posts/post_nope", { caption: long }, "caption"],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await post(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(await res.json()).toEqual({
        error: `${field} is longer than 100,000 characters; send a shorter text.`,
      });
    }
    // Exactly the limit is accepted, counted in characters (code points), not UTF-16 units.
    const res = await post("POST", "/posts", {
      caption: "\u{1F600}".repeat(100_000),
      platforms: ["x"],
      draft: true,
    });
    expect(res.status).toBe(201);
  });

  it("HEAD answers like GET without a body", async () => {
    const { service, auth } = await setup();
    const res = await service.fetch(
      new Request("http://localhost/api/v1/me", { method: "HEAD", headers: auth }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("/healthz answers 503 when the store does not", async () => {
    const store = new MemoryStore();
    const { service } = await setup({ store });
    await store.close();
    const res = await service.fetch(new Request("http://localhost/healthz"));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "The store is not reachable." });
  });

  it("the rate limit can be configured or turned off", async () => {
    const limited = await setup({ rateLimit: { limit: 2, windowMs: 1000 } });
    const get = (s: typeof limited) =>
      s.service.fetch(new Request("http://localhost/api/v1/me", { headers: s.auth }));
    expect((await get(limited)).status).toBe(200);
    expect((await get(limited)).headers.get("ratelimit")).toBe('"default";r=0;t=1');
    expect((await get(limited)).status).toBe(429);
    const open = await setup({ rateLimit: false });
    for (let i = 0; i < 700; i++) expect((await get(open)).status).toBe(200);
    expect((await get(open)).headers.get("ratelimit")).toBeNull();
  });

  it("a request the rate limit refuses still counts toward usage.api_calls_this_month", async () => {
    const s = await setup({ rateLimit: { limit: 2, windowMs: 1000 } });
    const me = () => s.service.fetch(new Request("http://localhost/api/v1/me", { headers: s.auth }));
    expect((await me()).status).toBe(200);
    expect((await me()).status).toBe(200);
    const refused = await me();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit")).toBe('"default";r=0;t=1');
    await s.clock.advance(1000);
    const after = await me();
    expect(after.status).toBe(200);
    // Every authenticated request of the month counts, this one included (decisions.md).
    expect((await after.json()).usage.api_calls_this_month).toBe(4);
  });

  it("POST /sandbox/metrics takes test keys only: a live key answers 403", async () => {
    const { store, service, clock } = await setup();
    const live = `sp_live_${"A".repeat(40)}`;
    const { user } = await provisionUser(store, { accounts: ["x"], key: live, now: clock.now() });
    const headers = { authorization: `Bearer ${live}`, "content-type": "application/json" };
    // A live key sees live accounts only, so it has no post here to report on: the refusal comes first.
    const post = { id: "post_01J00000000000000000000000" };
    const res = await service.fetch(
      new Request("http://localhost/api/v1/sandbox/metrics", {
        method: "POST",
        headers,
        body: JSON.stringify({ post_id: post.id, platform: "x", reach: 5 }),
      }),
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: "Sandbox metrics take a test key (sp_test_…); live networks report their own.",
    });
    expect(user.plan).toBe("free");
  });

  it("a draft is edited and published only with a key of its mode: 403 names the key to use, 404 for no such post", async () => {
    const { store, service, auth, user, clock } = await setup();
    const live = `sp_live_${"B".repeat(40)}`;
    await store.createKey({
      id: "key_01J00000000000000000000001",
      user_id: user.id,
      hash: await hashApiKey(live),
      mode: "live",
      hint: keyHint(live),
      created_at: clock.now(),
      revoked_at: null,
    });
    const call = (key: string, method: string, path: string, body: unknown) =>
      service.fetch(
        new Request(`http://localhost/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const created = await service.fetch(
      new Request("http://localhost/api/v1/posts", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ caption: "draft", platforms: ["x"], draft: true }),
      }),
    );
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const edit = await call(live, "PATCH", `/posts/${id}`, { caption: "changed" });
    expect(edit.status).toBe(403);
    expect(await edit.json()).toMatchObject({
      error: "This post was made with a test key and publishes to the sandbox; edit it with a test key.",
    });
    const publish = await call(live, "POST", `/posts/${id}/publish`, {});
    expect(publish.status).toBe(403);
    expect(await publish.json()).toMatchObject({
      error: "This post was made with a test key and publishes to the sandbox; publish it with a test key.",
    });
    const missing = await call(live, "PATCH", "/posts/post_01J00000000000000000000000", { caption: "x" });
    expect(missing.status).toBe(404);
  });

  it("fetch works without start(): requests are served, scheduled posts wait for the scheduler", async () => {
    const { service, auth, clock } = await setup();
    const res = await service.fetch(
      new Request("http://localhost/api/v1/posts", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ caption: "later", platforms: ["x"], schedule_at: clock.now() + 1000 }),
      }),
    );
    expect(res.status).toBe(201);
    expect(clock.pendingTimers).toBe(0);
    await service.start();
    expect(clock.nextTimerAt).toBe(clock.now() + 1000);
    await service.close();
  });
});

describe("webhook endpoints and the service options", () => {
  const create = async (options: Partial<ServiceOptions>, url: string) => {
    const { service, auth } = await setup(options);
    return service.fetch(
      new Request("http://localhost/api/v1/webhooks", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ url }),
      }),
    );
  };

  it("by default a webhook URL on a private address is refused with 400", async () => {
    const res = await create({}, "http://127.0.0.1:9000/hook");
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/loopback, private or link-local/);
  });

  it("allowPrivateWebhookUrls accepts it (the local quickstart)", async () => {
    expect((await create({ allowPrivateWebhookUrls: true }, "http://127.0.0.1:9000/hook")).status).toBe(201);
  });

  it("host names are checked through the lookupHost option", async () => {
    const lookupHost = async (host: string) =>
      host === "hooks.example.com" ? ["93.184.215.14"] : ["10.0.0.1"];
    expect((await create({ lookupHost }, "https://hooks.example.com/x")).status).toBe(201);
    expect((await create({ lookupHost }, "https://intranet.example.com/x")).status).toBe(400);
  });
});

describe("publish-now failures", () => {
  it("a publish-now whose attempt the service cannot make (store unreachable) answers publishing and is retried once, 5 s later", async () => {
    const store = new MemoryStore();
    const { service, auth, clock, user } = await setup({ store });
    await service.start();
    // The store fails once, at the attempt's read of the account: after the request's checks read the
    // accounts (the first listAccounts), whichever way the attempt reads it.
    const getAccount = store.getAccount.bind(store);
    const listAccounts = store.listAccounts.bind(store);
    let checked = false;
    let failures = 1;
    const unreachable = () => {
      if (failures-- > 0) throw new Error("database is locked");
    };
    store.getAccount = async (userId, mode, platform) => {
      unreachable();
      return getAccount(userId, mode, platform);
    };
    store.listAccounts = async (userId, mode) => {
      if (checked) unreachable();
      checked = true;
      return listAccounts(userId, mode);
    };
    const res = await service.fetch(
      new Request("http://localhost/api/v1/posts", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ caption: "retry me", platforms: ["x"] }),
      }),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ status: "publishing" });
    const [post] = await store.listPosts(user.id, { limit: 10 });
    expect(post).toMatchObject({ status: "publishing" });
    expect(await store.getTargets(post!.id)).toMatchObject([
      { status: "pending", in_flight: false, attempts: 0, next_attempt_at: clock.now() + 5000 },
    ]);
    await clock.advance(5000);
    expect((await store.getPost(user.id, post!.id))!.status).toBe("published");
    expect((await store.listEvents(user.id)).filter((e) => e.type === "post.published")).toHaveLength(1);
    await service.close();
  });
});
