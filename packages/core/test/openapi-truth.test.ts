import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { hashApiKey, keyHint } from "../src/keys.ts";
import { silentLogger } from "../src/logger.ts";
import { type NetworkAdapter, NetworkError } from "../src/networks/adapter.ts";
import { buildOpenApiDocument } from "../src/openapi/document.ts";
import { CredentialKeyring } from "../src/secrets/credential-keyring.ts";
import { createService, type ServiceOptions } from "../src/service/create-service.ts";
import { ROUTES } from "../src/service/routes/index.ts";
import { MemoryStore } from "../src/store/memory.ts";
import type { Store } from "../src/store/types.ts";
import { StoreUnavailableError } from "../src/store/unavailable.ts";
import { provisionUser } from "../src/testing/index.ts";
import { serveOverHttp } from "./client/helpers/http-bridge.ts";

/*
 * The document against the answers the service really gives, over HTTP: every status an operation
 * answers is declared for it, and what the document's patterns refuse the service refuses too.
 */

type Schema = { pattern?: string; default?: unknown; anyOf?: Schema[]; properties?: Record<string, Schema> };
type Response = { $ref?: string; headers?: Record<string, { $ref?: string; required?: boolean }> };
type Doc = {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, Response> }>>;
  components: {
    responses: Record<string, Response>;
    headers: Record<string, { required?: boolean }>;
    schemas: Record<string, Schema & { required?: string[] }>;
  };
};
const doc = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Doc;

/** The pattern of a schema's string branch, however deep in its anyOf (media: a string or a list). */
function stringPattern(schema: Schema): string | undefined {
  if (schema.pattern !== undefined) return schema.pattern;
  for (const branch of schema.anyOf ?? []) {
    const found = stringPattern(branch);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The operation with this id: its method, its path as the document writes it, and its route. */
function operation(operationId: string) {
  const route = ROUTES.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no operation ${operationId}`);
  return { route, op: doc.paths[route.path]![route.method.toLowerCase()]! };
}

/** The response `operationId` declares for `status`, a shared one resolved; undefined when none. */
function declared(operationId: string, status: number): Response | undefined {
  const response = operation(operationId).op.responses[String(status)];
  const shared = response?.$ref?.replace("#/components/responses/", "");
  return shared ? doc.components.responses[shared] : response;
}

/** Whether the declared answer carries `name` for sure (a required header). */
function alwaysSends(response: Response, name: string): boolean {
  const header = response.headers?.[name];
  if (!header) return false;
  const shared = header.$ref?.replace("#/components/headers/", "");
  return (shared ? doc.components.headers[shared]!.required : header.required) === true;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The service over real HTTP on port 0; `call` sends a request to it with a key and a JSON body. */
async function serve(options: Partial<ServiceOptions> & { store: Store }) {
  const service = createService({ logger: silentLogger, rateLimit: false, ...options });
  const server = await serveOverHttp(service.fetch);
  closers.push(() => server.close());
  const call = (key: string | null, method: string, path: string, body?: unknown) =>
    fetch(`${server.origin}${path.startsWith("/healthz") ? "" : "/api/v1"}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { call };
}

/** A store whose every method fails as a database that went away does, while `down` is set. */
function storeThatGoesDown(inner: Store) {
  const state = { down: false };
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        state.down
          ? Promise.reject(new StoreUnavailableError(`${String(name)}: the database went away`))
          : value.apply(target, args);
    },
  });
  return { store, state };
}

/** An adapter of a network that connects through OAuth: enough for the callback to read the store. */
const oauthAdapter = { id: "x", oauth: { missingSettings: [], pkce: true } } as unknown as NetworkAdapter;

describe("the OpenAPI document declares what the service answers", () => {
  it("while the store is unreachable every operation that reads it answers 503 with Retry-After, and says so", async () => {
    const { store, state } = storeThatGoesDown(new MemoryStore());
    const { apiKey } = await provisionUser(store, { accounts: ["x"] });
    const { call } = await serve({ store, liveAdapters: { x: oauthAdapter } });
    const PARAMS: Record<string, string> = {
      id: "post_01J00000000000000000000000",
      platform: "x",
      token: "t0ken",
      event_id: "evt_01J00000000000000000000000",
    };
    state.down = true;
    for (const route of ROUTES) {
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => PARAMS[name]!);
      const query = route.operationId === "finishOAuthConnect" ? "?state=s7ate&code=c0de" : "";
      const res = await call(apiKey, route.method, path + query, route.body ? {} : undefined);
      const name = `${route.operationId} (${route.method} ${route.path})`;
      const response = declared(route.operationId, res.status);
      expect(response, `${name} answered ${res.status}, undeclared`).toBeDefined();
      if (route.storeUnavailable === false) {
        // It reads no store (this document, an upload's bytes), or is /healthz with its own 503.
        expect(res.headers.get("retry-after"), name).toBeNull();
        expect(res.status === 503, name).toBe(route.operationId === "getHealth");
        continue;
      }
      expect(res.status, name).toBe(503);
      expect(Number(res.headers.get("retry-after")), name).toBeGreaterThan(0);
      expect(response!.headers?.["Retry-After"], name).toBeDefined();
      // Sure to come unless the operation also answers 503 for a cause of its own (connectAccount).
      expect(alwaysSends(response!, "Retry-After"), name).toBe(route.responses[503] === undefined);
      expect(await res.json(), name).toMatchObject({
        error: expect.stringContaining("database is unavailable right now"),
      });
    }
    // The shared answer is one component, referenced from each operation.
    expect(operation("createPost").op.responses["503"]).toEqual({
      $ref: "#/components/responses/StoreUnavailable",
    });
    // /healthz says the store is down with its own 503, which the document declares without Retry-After.
    const health = await call(null, "GET", "/healthz");
    expect(health.status).toBe(503);
    expect(health.headers.get("retry-after")).toBeNull();
    expect(alwaysSends(declared("getHealth", 503)!, "Retry-After")).toBe(false);
  });

  it("a key of the other mode editing or publishing a post answers 403, declared by updatePost and publishDraft", async () => {
    const store = new MemoryStore();
    const { apiKey, user } = await provisionUser(store, { accounts: ["x"] });
    const live = `sp_live_${"L".repeat(40)}`;
    await store.createKey({
      id: "key_01J00000000000000000000001",
      user_id: user.id,
      hash: await hashApiKey(live),
      mode: "live",
      hint: keyHint(live),
      created_at: Date.now(),
      revoked_at: null,
    });
    const { call } = await serve({ store });
    const created = await call(apiKey, "POST", "/posts", { caption: "Hi", platforms: ["x"], draft: true });
    const { id } = (await created.json()) as { id: string };
    const edit = await call(live, "PATCH", `/posts/${id}`, { caption: "changed" });
    const publish = await call(live, "POST", `/posts/${id}/publish`, {});
    expect([edit.status, publish.status]).toEqual([403, 403]);
    expect(declared("updatePost", 403)?.headers).toBeDefined();
    expect(declared("publishDraft", 403)?.headers).toBeDefined();
  });

  it("connecting with a live key answers 502 when the network cannot be reached and 503 without a secret key, both declared", async () => {
    const unreachable = {
      id: "bluesky",
      connect: async () => {
        throw new NetworkError("bluesky", "retry", "Bluesky could not be reached.");
      },
    } as unknown as NetworkAdapter;
    const body = { platform: "bluesky", handle: "someone.bsky.social", app_password: "abcd-efgh-ijkl-mnop" };

    const store = new MemoryStore();
    const { apiKey } = await provisionUser(store, { key: `sp_live_${"N".repeat(40)}` });
    const withKeyring = await serve({
      store,
      liveAdapters: { bluesky: unreachable },
      credentialKeyring: new CredentialKeyring(randomBytes(32)),
    });
    const down = await withKeyring.call(apiKey, "POST", "/accounts/connect", body);
    expect(down.status).toBe(502);
    const withoutKeyring = await serve({ store, liveAdapters: { bluesky: unreachable } });
    const noSecret = await withoutKeyring.call(apiKey, "POST", "/accounts/connect", body);
    expect(noSecret.status).toBe(503);
    expect(noSecret.headers.get("retry-after")).toBeNull();

    expect(declared("connectAccount", 502)).toBeDefined();
    const declared503 = declared("connectAccount", 503)!;
    expect(declared503).toBeDefined();
    // Retry-After comes with the store's 503 only, so this operation's 503 may come without it.
    expect(declared503.headers?.["Retry-After"]).toBeDefined();
    expect(alwaysSends(declared503, "Retry-After")).toBe(false);
  });
});

describe("the OpenAPI document's request schemas refuse only what the service refuses", () => {
  const matches = (pattern: string | undefined, value: string) =>
    pattern === undefined || new RegExp(pattern, "u").test(value);

  it("schedule_at as digits with spaces around is accepted, and the document's pattern takes it", async () => {
    const store = new MemoryStore();
    const { apiKey } = await provisionUser(store, { accounts: ["x"] });
    const { call } = await serve({ store });
    const digits = ` ${Math.floor(Date.now() / 1000) + 3600}\t`;
    const res = await call(apiKey, "POST", "/posts", {
      caption: "Later",
      platforms: ["x"],
      schedule_at: digits,
    });
    expect(res.status).toBe(201);
    const forms = doc.components.schemas.ScheduleTime!.anyOf!;
    expect(forms.some((form) => form.pattern !== undefined && matches(form.pattern, digits))).toBe(true);
    expect(forms.some((form) => form.pattern !== undefined && matches(form.pattern, " 12a "))).toBe(false);
  });

  /** Values the service's URL check takes, or refuses for their scheme (or for being no URL). */
  const TAKEN = [
    "https://example.com/a.png",
    "http://example.com/a.png",
    "HTTPS://example.com/a.png",
    "Http://example.com/a.png",
    " https://example.com/a.png",
    "\thttps://example.com/a.png",
    "https:example.com/a.png",
  ];
  const REFUSED = [
    "ftp://example.com/a.png",
    "file:///etc/a.png",
    "example.com/a.png",
    "//example.com/a.png",
    "data:image/png;base64,AAAA",
    "javascript:alert(1)",
    "",
  ];

  it("URL fields: the document's pattern takes every http(s) URL the service takes, and refuses ftp:, file: and the like", async () => {
    const store = new MemoryStore();
    const { apiKey } = await provisionUser(store, { plan: "studio", accounts: ["x"] });
    const { call } = await serve({ store, allowPrivateWebhookUrls: true });
    const schemas = doc.components.schemas;
    const FIELDS = [
      {
        name: "createMedia url",
        pattern: schemas.MediaUrlBody!.properties!.url!.pattern,
        send: (v: string) => call(apiKey, "POST", "/media", { url: v }),
      },
      {
        name: "createWebhook url",
        pattern: schemas.CreateWebhookBody!.properties!.url!.pattern,
        send: async (v: string) => {
          const res = await call(apiKey, "POST", "/webhooks", { url: v });
          // At most 20 endpoints per account: each accepted one is deleted again.
          if (res.status === 201)
            await call(apiKey, "DELETE", `/webhooks/${((await res.clone().json()) as { id: string }).id}`);
          return res;
        },
      },
      {
        name: "updateWebhook url",
        pattern: schemas.UpdateWebhookBody!.properties!.url!.pattern,
        send: async (v: string) => {
          const made = await call(apiKey, "POST", "/webhooks", { url: "https://example.com/hook" });
          const { id } = (await made.json()) as { id: string };
          const res = await call(apiKey, "PATCH", `/webhooks/${id}`, { url: v });
          await call(apiKey, "DELETE", `/webhooks/${id}`);
          return res;
        },
      },
      {
        name: "createPost media",
        pattern: stringPattern(schemas.CreatePostBody!.properties!.media!),
        send: (v: string) =>
          call(apiKey, "POST", "/posts", { caption: "Hi", platforms: ["x"], media: v, draft: true }),
      },
      {
        name: "schedulePost media",
        pattern: stringPattern(schemas.ScheduleBody!.properties!.media!),
        send: (v: string) =>
          call(apiKey, "POST", "/schedule", { caption: "Hi", platforms: ["x"], media: v, at: "next" }),
      },
    ];
    for (const field of FIELDS) {
      expect(field.pattern, field.name).toBeDefined();
      for (const value of [...TAKEN, ...REFUSED]) {
        const res = await field.send(value);
        const where = `${field.name} ${JSON.stringify(value)}: ${res.status} ${await res.text()}`;
        expect([200, 201, 400], where).toContain(res.status);
        expect(res.status === 400, where).toBe(REFUSED.includes(value));
        expect(matches(field.pattern, value), where).toBe(TAKEN.includes(value));
      }
    }
    // A post's media may also be one of the user's med_ ids.
    expect(
      matches(stringPattern(schemas.CreatePostBody!.properties!.media!), "med_01J00000000000000000000000"),
    ).toBe(true);
    // media is one string or (extension) a list: the string branch carries the pattern, in PATCH too.
    expect(stringPattern(schemas.UpdatePostBody!.properties!.media!)).toBe(
      stringPattern(schemas.CreatePostBody!.properties!.media!),
    );
  });

  it("reportSandboxMetrics: likes, comments and shares may be left out (they count 0), so the document gives them no default", async () => {
    const body = doc.components.schemas.SandboxMetricsBody!;
    expect(body.required).toEqual(["post_id", "platform", "reach"]);
    for (const field of ["likes", "comments", "shares"]) {
      expect(body.properties![field], field).not.toHaveProperty("default");
    }
    const store = new MemoryStore();
    const { apiKey } = await provisionUser(store, { accounts: ["x"] });
    const { call } = await serve({ store });
    const post = (await (
      await call(apiKey, "POST", "/posts", { caption: "Hi", platforms: ["x"] })
    ).json()) as {
      id: string;
    };
    const res = await call(apiKey, "POST", "/sandbox/metrics", {
      post_id: post.id,
      platform: "x",
      reach: 40,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ reach: 40, likes: 0, comments: 0, shares: 0 });
  });
});
