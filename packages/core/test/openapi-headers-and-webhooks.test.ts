import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../src/contract/events.ts";
import { silentLogger } from "../src/logger.ts";
import { buildOpenApiDocument } from "../src/openapi/document.ts";
import { createService } from "../src/service/create-service.ts";
import { takesIdempotencyKey } from "../src/service/idempotency.ts";
import { ROUTES } from "../src/service/routes/index.ts";
import { MemoryStore } from "../src/store/memory.ts";
import { FakeClock, provisionUser } from "../src/testing/index.ts";

type Ref = { $ref: string };
type Response = { headers?: Record<string, Ref>; $ref?: string };
type Operation = {
  responses: Record<string, Response>;
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: Ref }> };
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: {
    responses: Record<string, Response>;
    headers: Record<string, { required?: boolean; schema: object }>;
    schemas: Record<string, { properties: Record<string, { const?: string; $ref?: string }> }>;
  };
};
const doc = buildOpenApiDocument() as unknown as Doc;

/** The response an operation documents for a status, a shared one (components.responses) resolved. */
const responseOf = (method: string, path: string, status: number | string): Response | undefined => {
  const response = doc.paths[path]![method.toLowerCase()]!.responses[String(status)];
  const shared = response?.$ref?.replace("#/components/responses/", "");
  return shared ? doc.components.responses[shared] : response;
};

/** The response headers an operation documents for a status. */
const declared = (method: string, path: string, status: number | string) =>
  Object.keys(responseOf(method, path, status)?.headers ?? {});

describe("OpenAPI response headers", () => {
  it("declares each header once, under components.headers, with whether it is always sent", () => {
    const headers = doc.components.headers;
    expect(Object.keys(headers).sort()).toEqual(
      [
        "Idempotent-Replayed",
        "Link",
        "RateLimit",
        "RateLimit-Policy",
        "Retry-After",
        "WWW-Authenticate",
        "X-Request-Id",
      ].sort(),
    );
    expect(headers["X-Request-Id"]!.required).toBe(true);
    expect(headers["Retry-After"]!.required).toBe(true);
    expect(headers["WWW-Authenticate"]).toMatchObject({ required: true, schema: { const: "Bearer" } });
    for (const optional of ["Idempotent-Replayed", "Link", "RateLimit", "RateLimit-Policy"]) {
      expect(headers[optional]!.required ?? false, optional).toBe(false);
    }
  });

  it("puts X-Request-Id on every answer, and the rate limit on the authenticated ones", () => {
    for (const route of ROUTES) {
      const { method, path } = route;
      for (const status of Object.keys(doc.paths[path]![method.toLowerCase()]!.responses)) {
        const names = declared(method, path, status);
        const where = `${method} ${path} ${status}`;
        expect(names, where).toContain("X-Request-Id");
        const limited = route.auth && status !== "401" && Number(status) < 500;
        expect(names.includes("RateLimit") && names.includes("RateLimit-Policy"), where).toBe(limited);
        // 503: the store is unreachable (every operation that reads it), after Retry-After seconds.
        const retry = status === "429" || (status === "503" && route.storeUnavailable !== false);
        expect(names.includes("Retry-After"), where).toBe(retry);
        expect(names.includes("WWW-Authenticate"), where).toBe(status === "401");
        // Only answers that made a change are kept for a key, so only those can be replayed.
        if (takesIdempotencyKey(route)) {
          expect(names.includes("Idempotent-Replayed"), where).toBe(Number(status) < 300);
        } else expect(names, where).not.toContain("Idempotent-Replayed");
      }
    }
  });

  it("puts Link on the paged lists only", () => {
    expect(declared("GET", "/posts", 200)).toContain("Link");
    expect(declared("GET", "/webhooks/{id}/attempts", 200)).toContain("Link");
    expect(declared("GET", "/accounts", 200)).not.toContain("Link");
    expect(declared("GET", "/webhooks", 200)).not.toContain("Link");
    expect(declared("GET", "/posts", 400)).not.toContain("Link");
  });

  it("declares every header the service sends on its answers", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    const service = createService({
      store,
      clock,
      logger: silentLogger,
      rateLimit: { limit: 6, windowMs: 60_000 },
    });
    const { apiKey } = await provisionUser(store, { accounts: ["x"], now: clock.now() });
    const WATCHED = [
      "x-request-id",
      "ratelimit",
      "ratelimit-policy",
      "retry-after",
      "www-authenticate",
      "idempotent-replayed",
      "link",
    ];
    const check = async (method: string, path: string, init: RequestInit = {}) => {
      const res = await service.fetch(
        new Request(`http://localhost/api/v1${path}`, {
          method,
          ...init,
          headers: { authorization: `Bearer ${apiKey}`, ...init.headers },
        }),
      );
      const sent = WATCHED.filter((name) => res.headers.has(name));
      const documented = declared(method, path.split("?")[0]!, res.status).map((n) => n.toLowerCase());
      expect(documented, `${method} ${path} ${res.status}`).toEqual(expect.arrayContaining(sent));
      return { status: res.status, sent };
    };
    const create = {
      body: JSON.stringify({ caption: "Hi", platforms: ["x"] }),
      headers: { "content-type": "application/json", "idempotency-key": "k1" },
    };
    expect(await check("POST", "/posts", create)).toMatchObject({ status: 201 });
    expect((await check("POST", "/posts", create)).sent).toContain("idempotent-replayed");
    await check("POST", "/posts", { ...create, headers: { ...create.headers, "idempotency-key": "k2" } });
    expect((await check("GET", "/posts?limit=1")).sent).toEqual(
      expect.arrayContaining(["link", "ratelimit"]),
    );
    expect((await check("GET", "/me", { headers: { authorization: "Bearer nope" } })).sent).toContain(
      "www-authenticate",
    );
    await check("GET", "/accounts");
    await check("GET", "/analytics");
    const limited = await check("GET", "/me");
    expect(limited).toMatchObject({ status: 429 });
    expect(limited.sent).toContain("retry-after");
    await service.close();
    await store.close();
  });
});

describe("OpenAPI webhooks", () => {
  it("describes each of the eight events as the request sent to an endpoint", () => {
    expect(Object.keys(doc.webhooks)).toEqual([...EVENT_TYPES]);
    const dataIds = new Set<string>();
    for (const type of EVENT_TYPES) {
      const op = doc.webhooks[type]!.post;
      const ref = op.requestBody!.content["application/json"]!.schema.$ref;
      const envelope = doc.components.schemas[ref.replace("#/components/schemas/", "")]!;
      expect(Object.keys(envelope.properties).sort(), type).toEqual(["created", "data", "id", "type"]);
      expect(envelope.properties.type!.const, type).toBe(type);
      const data = envelope.properties.data!.$ref;
      expect(data, type).toMatch(/^#\/components\/schemas\/\w+Data$/);
      dataIds.add(data!);
      for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
        expect(op.parameters, `${type} ${name}`).toContainEqual(
          expect.objectContaining({ in: "header", name, required: true }),
        );
      }
      expect(Object.keys(op.responses).sort()).toEqual(["2XX", "410", "default"]);
    }
    // account.connected and account.disconnected share one data shape.
    expect(dataIds.size).toBe(7);
  });

  it("gives post.published the data the contract states", () => {
    const data = doc.components.schemas.PostPublishedData!;
    expect(Object.keys(data.properties).sort()).toEqual([
      "metrics",
      "permalink",
      "platform",
      "post_id",
      "status",
    ]);
    expect(data.properties.status!.const).toBe("published");
  });
});
