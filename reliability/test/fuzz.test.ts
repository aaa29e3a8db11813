import { SAMPLE_PNG } from "@socialpub/core/testing";
import fc from "fast-check";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useFigures } from "../support/figures.ts";
import { call } from "../support/http.ts";
import { type InProcessServer, startInProcessServer } from "../support/in-process-server.ts";
import { perStore, STORE_NAME } from "../support/store.ts";

/** Requests per run: bounded, so the suite ends; the seed makes a failure reproduce. */
const NUM_RUNS = perStore(1500, 500);
const SEED = Number(process.env.RELIABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const figures = useFigures("fuzzing every endpoint");

interface Operation {
  method: string;
  /** OpenAPI form, relative to its server URL. */
  path: string;
  /** Full path on the server, e.g. /api/v1/posts/{id}. */
  fullPath: string;
  statuses: Set<number>;
  /** Statuses answered with an HTML page (documented as text/html) rather than JSON. */
  htmlStatuses: Set<number>;
  pattern: RegExp;
}

let target: InProcessServer;
let operations: Operation[];
const keys = { a: "", b: "", revoked: "" };
const known = { post: "", draft: "", webhook: "", media: "" };
const dispatcher = new Agent({ connections: 16 });

beforeAll(async () => {
  target = await startInProcessServer({ service: { rateLimit: false, allowPrivateWebhookUrls: true } });
  const a = await target.user({ accounts: ["x", "bluesky", "instagram"] });
  const b = await target.user();
  const revoked = await target.user();
  keys.a = a.key;
  keys.b = b.key;
  keys.revoked = revoked.key;
  const [revokedKey] = await target.store.listKeys(revoked.id);
  await target.store.revokeKey(revokedKey!.id, Date.now());
  const { server } = target;
  known.post = (
    await call(figures, server, a.key, "POST", "/posts", { body: { caption: "p", platforms: ["x"] } })
  ).body.id;
  known.draft = (
    await call(figures, server, a.key, "POST", "/posts", {
      body: { caption: "d", platforms: ["x"], draft: true },
    })
  ).body.id;
  known.webhook = (
    await call(figures, server, a.key, "POST", "/webhooks", { body: { url: "http://127.0.0.1:9/fuzz-hook" } })
  ).body.id;
  known.media = (
    await call(figures, server, a.key, "POST", "/media", { body: { url: "https://cdn.example.com/a.png" } })
  ).body.id;
  operations = await loadOperations(server.url);
});

afterAll(async () => {
  await dispatcher.close();
  await target?.close();
});

/** Every operation of the served OpenAPI document, with the statuses it documents. */
async function loadOperations(origin: string): Promise<Operation[]> {
  const doc = (await (await fetch(`${origin}/api/v1/openapi.json`)).json()) as {
    servers: { url: string }[];
    paths: Record<string, Record<string, unknown> & { servers?: { url: string }[] }>;
  };
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const base = (item.servers?.[0]?.url ?? doc.servers[0]!.url).replace(/\/$/, "");
    const fullPath = `${base}${path}`;
    const pattern = new RegExp(`^${fullPath.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "[^/]+")}$`);
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "delete", "patch", "put"].includes(method)) continue;
      const responses = (op as { responses: Record<string, { content?: Record<string, unknown> }> })
        .responses;
      out.push({
        method: method.toUpperCase(),
        path,
        fullPath,
        pattern,
        statuses: new Set(Object.keys(responses).map(Number)),
        // Pages for a person's browser (the OAuth callback) document their answers as text/html.
        htmlStatuses: new Set(
          Object.entries(responses)
            .filter(([, r]) => r.content && "text/html" in r.content)
            .map(([status]) => Number(status)),
        ),
      });
    }
  }
  return out;
}

// ---- what a request is made of ----

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
});
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("", " ", "..", "%2F", "%00", "null", "-1", "0", "1e309", "💥", "a".repeat(3000)),
);
const paramValue = fc.oneof(
  fc.constantFrom(
    "{known}",
    "{known}",
    "x",
    "bluesky",
    "tiktok",
    "post_01J00000000000000000000000",
    "wh_x",
    "med_x",
  ),
  anyText,
);
const queryString = fc.oneof(
  fc.constant(""),
  fc
    .array(
      fc.tuple(
        fc.constantFrom("limit", "status", "cursor", "n", "limit[]", ""),
        fc.oneof(anyText, fc.nat().map(String)),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => `?${new URLSearchParams(pairs).toString()}`),
  printable.map((raw) => `?${raw.replace(/#/g, "")}`),
);
const jsonValue = fc.jsonValue({ maxDepth: 3 });
/** Fields the bodies know, with values of any type: the shape is right, the types are not. */
const knownFields = fc.dictionary(
  fc.constantFrom(
    "caption",
    "platforms",
    "schedule_at",
    "media",
    "draft",
    "at",
    "platform",
    "handle",
    "url",
    "type",
    "events",
    "post_id",
    "reach",
    "likes",
    "health",
  ),
  fc.oneof(
    jsonValue,
    fc.constantFrom(["x"], ["x", "bluesky", "mastodon"], "next", "x", "https://cdn.example.com/v.mp4"),
  ),
  { maxKeys: 6 },
);
const body = fc.oneof(
  { weight: 3, arbitrary: knownFields.map((v) => ({ text: JSON.stringify(v), malformed: false })) },
  { weight: 2, arbitrary: jsonValue.map((v) => ({ text: JSON.stringify(v) ?? "null", malformed: true })) },
  { weight: 2, arbitrary: fc.string().map((text) => ({ text, malformed: true })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(knownFields, fc.nat({ max: 40 }))
      .map(([v, cut]) => ({ text: JSON.stringify(v).slice(0, cut), malformed: true })),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ bytes, malformed: true })) },
  { weight: 1, arbitrary: fc.constant({ bytes: SAMPLE_PNG, malformed: false }) },
  { weight: 1, arbitrary: fc.constant(null) },
);
const contentType = fc.oneof(
  fc.constant("application/json"),
  fc.constantFrom(
    undefined,
    "application/json; charset=utf-8",
    "text/plain",
    "image/png",
    "video/mp4",
    "application/x-www-form-urlencoded",
    "application/problem+json",
    "multipart/form-data; boundary=x",
    "json",
    ";;",
  ),
  printable,
);
const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constant("a") },
  { weight: 1, arbitrary: fc.constantFrom("b", "revoked", "none", "Bearer", "Basic dXNlcjpwYXNz") },
  { weight: 1, arbitrary: printable.map((s) => `Bearer ${s}`) },
);
const scenario = fc.record({
  operation: fc.nat(),
  method: fc.oneof(
    { weight: 5, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS") },
  ),
  param: paramValue,
  query: queryString,
  authorization,
  contentType,
  idempotencyKey: fc.option(fc.oneof(printable, fc.string({ maxLength: 300 })), { nil: undefined }),
  requestId: fc.option(printable, { nil: undefined }),
  body,
});

function authHeader(choice: string): string | undefined {
  if (choice === "a" || choice === "b" || choice === "revoked") return `Bearer ${keys[choice]}`;
  if (choice === "none") return undefined;
  return choice;
}

function fillParam(path: string, value: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (value !== "{known}") return encodeURIComponent(value);
    if (name === "platform") return "x";
    if (path.startsWith("/api/v1/webhooks")) return known.webhook;
    if (path.startsWith("/api/v1/media")) return known.media;
    return path.endsWith("/publish") ? known.draft : known.post;
  });
}

/** Header values undici refuses to send (control characters) are dropped, as no client could send them. */
const sendable = (value: string | undefined) =>
  value !== undefined && /^[\t\x20-\x7e]*$/.test(value) ? value : undefined;

describe(`fuzzing every endpoint, ${STORE_NAME} store`, () => {
  it(`random and malformed requests to every operation (${NUM_RUNS} runs) never get a 5xx, always a JSON {error} with a documented status, and the server keeps answering`, async () => {
    process.stdout.write(
      `fuzz seed: ${SEED} (RELIABILITY_SEED=${SEED} pnpm test:reliability reproduces a failure)\n`,
    );
    const covered = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const op = operations[s.operation % operations.length]!;
        const method = s.method ?? op.method;
        const path = fillParam(op.fullPath, s.param) + s.query;
        const headers: Record<string, string> = {};
        const auth = sendable(authHeader(s.authorization));
        if (auth) headers.authorization = auth;
        const type = sendable(s.contentType);
        if (type) headers["content-type"] = type;
        const key = sendable(s.idempotencyKey);
        if (key !== undefined) headers["idempotency-key"] = key;
        const requestId = sendable(s.requestId);
        if (requestId !== undefined) headers["x-request-id"] = requestId;
        const hasBody = method !== "GET" && method !== "HEAD" && s.body !== null;
        const payload = hasBody && s.body ? ("text" in s.body ? s.body.text : s.body.bytes) : undefined;
        const malformed =
          s.method !== null ||
          s.authorization !== "a" ||
          (s.body?.malformed ?? false) ||
          type !== "application/json";
        if (malformed) figures.faults++;

        figures.requests++;
        const res = await request(new URL(path, target.server.url), {
          method,
          headers,
          ...(payload !== undefined && { body: payload }),
          dispatcher,
        });
        const text = await res.body.text();
        const seenPath = new URL(path, target.server.url).pathname;
        const what = `${method} ${path} → ${res.statusCode} ${text.slice(0, 300)}`;
        covered.set(`${op.method} ${op.path}`, (covered.get(`${op.method} ${op.path}`) ?? 0) + 1);

        // The one 5xx allowed: 501 for a method the API uses nowhere, on a path no operation has.
        if (res.statusCode >= 500) expect([res.statusCode, apiUses(method)], what).toEqual([501, false]);
        expect(res.headers["x-request-id"], what).toBeTruthy();
        const page = op.pattern.test(seenPath) && method === op.method && op.htmlStatuses.has(res.statusCode);
        if (res.statusCode >= 400 && method !== "HEAD" && page) {
          // A page says what went wrong in words; it must still be a page, never a stack.
          expect(String(res.headers["content-type"]), what).toMatch(/^text\/html/);
          expect(text, what).toMatch(/^<!doctype html>/i);
        } else if (res.statusCode >= 400 && method !== "HEAD") {
          expect(String(res.headers["content-type"]), what).toMatch(/^application\/json/);
          const parsed = JSON.parse(text);
          expect(Object.keys(parsed), what).toEqual(["error"]);
          expect(typeof parsed.error === "string" && parsed.error.length > 0, what).toBe(true);
        }
        if (res.statusCode >= 400) expect(fitting(seenPath, method, res.statusCode), what).toBe(true);
      }),
      { numRuns: NUM_RUNS, seed: SEED },
    );
    // Every operation of the document was exercised.
    for (const op of operations)
      expect(covered.get(`${op.method} ${op.path}`), `${op.method} ${op.path}`).toBeGreaterThan(0);
    // The server still answers, and still correctly.
    expect((await fetch(`${target.server.url}/healthz`)).status).toBe(200);
    const me = await call(figures, target.server, keys.a, "GET", "/me");
    expect(me.status).toBe(200);
    expect((await call(figures, target.server, keys.a, "GET", "/posts")).status).toBe(200);
  });
});

/** Whether any operation takes the method (HEAD goes with GET). */
function apiUses(method: string): boolean {
  return operations.some((op) => op.method === method || (method === "HEAD" && op.method === "GET"));
}

/**
 * Whether a refusal's status fits the request: a status the operation documents, 404 for a path no
 * operation has (501 there for a method the API uses nowhere), 405 for a method the path does not take
 * (HEAD goes with GET).
 */
function fitting(pathname: string, method: string, status: number): boolean {
  const atPath = operations.filter((op) => op.pattern.test(pathname));
  if (atPath.length === 0) return status === 404 || (status === 501 && !apiUses(method));
  const op = atPath.find((o) => o.method === method || (method === "HEAD" && o.method === "GET"));
  if (!op) return status === 405;
  return op.statuses.has(status);
}
