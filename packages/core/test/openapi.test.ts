import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../src/logger.ts";
import { buildOpenApiDocument } from "../src/openapi/document.ts";
import { createService } from "../src/service/create-service.ts";
import { takesIdempotencyKey } from "../src/service/idempotency.ts";
import { ROUTES } from "../src/service/routes/index.ts";
import { MemoryStore } from "../src/store/memory.ts";

type Doc = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>>;
  components: { schemas: Record<string, unknown> };
};
const doc = () => buildOpenApiDocument() as unknown as Doc;

/** Every operation and status the contract states, relative to {base_url} (/api/v1). */
const CONTRACT: [method: string, path: string, statuses: string[]][] = [
  ["get", "/me", ["200", "401"]],
  ["post", "/posts", ["201", "400", "401"]],
  ["get", "/posts", ["200", "401"]],
  ["get", "/posts/{id}", ["200", "401", "404"]],
  ["delete", "/posts/{id}", ["200", "401", "404"]],
  ["get", "/accounts", ["200", "401"]],
  ["get", "/analytics", ["200", "401"]],
];

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(doc());
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc().openapi).toBe("3.1.0");
    expect(doc().servers).toEqual([{ url: "/api/v1" }]);
  });

  it("the validator used above refuses a broken document", async () => {
    const broken = { ...doc(), info: undefined, paths: { "/me": { get: { responses: { "200": {} } } } } };
    expect((await new Validator().validate(JSON.parse(JSON.stringify(broken)))).valid).toBe(false);
  });

  it("has every path and status of the contract", () => {
    const paths = doc().paths;
    for (const [method, path, statuses] of CONTRACT) {
      const op = paths[path]?.[method];
      expect(op, `${method.toUpperCase()} ${path}`).toBeDefined();
      for (const status of statuses)
        expect(Object.keys(op!.responses), `${method} ${path}`).toContain(status);
    }
  });

  it("has every operation of the route table, and nothing else", () => {
    const listed = Object.entries(doc().paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((k) => ["get", "post", "delete", "patch"].includes(k))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routes = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(listed.sort()).toEqual(routes.sort());
  });

  it("documents Idempotency-Key, with its 409 and 422, on every POST and DELETE, and PATCH /posts/{id}", () => {
    const paths = doc().paths as Record<
      string,
      Record<string, { responses: Record<string, unknown>; security?: unknown[]; parameters?: unknown[] }>
    >;
    const writes = ROUTES.filter(takesIdempotencyKey);
    expect(writes.length).toBeGreaterThanOrEqual(10);
    for (const route of writes) {
      const op = paths[route.path]![route.method.toLowerCase()]!;
      const name = `${route.method} ${route.path}`;
      const header = (op.parameters as { in: string; name: string; required?: boolean }[] | undefined)?.find(
        (p) => p.in === "header" && p.name === "Idempotency-Key",
      );
      expect(header, name).toBeDefined();
      expect(header!.required ?? false, name).toBe(false);
      for (const status of ["400", "401", "409", "422", "429"])
        expect(Object.keys(op.responses), name).toContain(status);
    }
    expect(paths["/posts"]!.get!.parameters ?? []).not.toContainEqual(
      expect.objectContaining({ name: "Idempotency-Key" }),
    );
  });

  it("names the contract's resources as components generated from the zod schemas", () => {
    const schemas = doc().components.schemas;
    for (const name of [
      "Post",
      "CurrentUser",
      "Account",
      "Analytics",
      "Error",
      "CreatePostBody",
      "Target",
      "NetworkId",
    ]) {
      expect(Object.keys(schemas)).toContain(name);
    }
    expect(schemas.Post).toMatchObject({
      type: "object",
      required: expect.arrayContaining([
        "id",
        "caption",
        "platforms",
        "status",
        "has_media",
        "scheduled_at",
        "published_at",
        "reach",
        "engagement_rate",
      ]),
    });
    expect(Object.keys((schemas.Post as { properties: object }).properties).sort()).toEqual([
      "caption",
      "engagement_rate",
      "has_media",
      "id",
      "platforms",
      "published_at",
      "reach",
      "scheduled_at",
      "status",
    ]);
  });

  it("gives a schedule time as an integer, a string of digits, or a date-time with an offset", () => {
    const schedule = doc().components.schemas.ScheduleTime as { type?: unknown; anyOf: object[] };
    expect(schedule.type).toBeUndefined();
    expect(schedule.anyOf).toEqual([
      expect.objectContaining({ type: "integer" }),
      expect.objectContaining({ type: "string", pattern: "^\\s*\\d+\\s*$" }),
      expect.objectContaining({ type: "string", format: "date-time" }),
    ]);
  });

  it("marks operations that need a key with bearer security, and health and this document without", () => {
    const paths = doc().paths;
    expect(paths["/me"]!.get!.security).toEqual([{ bearerAuth: [] }]);
    expect(paths["/openapi.json"]!.get!.security).toEqual([]);
    expect(paths["/healthz"]!.get!.security).toEqual([]);
  });

  it("is what GET /api/v1/openapi.json serves", async () => {
    const service = createService({ store: new MemoryStore(), logger: silentLogger });
    const res = await service.fetch(new Request("http://localhost/api/v1/openapi.json"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc())));
  });
});
