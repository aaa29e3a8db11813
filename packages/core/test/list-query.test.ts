import { describe, expect, it } from "vitest";
import { ListAttemptsQuery, ListPostsQuery } from "../src/contract/requests.ts";
import { silentLogger } from "../src/logger.ts";
import { buildOpenApiDocument } from "../src/openapi/document.ts";
import { createService } from "../src/service/create-service.ts";
import { MemoryStore } from "../src/store/memory.ts";
import { provisionUser } from "../src/testing/index.ts";

type Parameter = { in: string; name: string; schema: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

const parse = (query: Record<string, string>) => ListPostsQuery.safeParse(query);
const refusal = (query: Record<string, string>) => {
  const result = parse(query);
  if (result.success) throw new Error(`accepted ${JSON.stringify(query)}`);
  return result.error.issues[0];
};

describe("list query schemas", () => {
  it("limit is 20 when absent, the number given from 1 to 100, and 100 above that", () => {
    expect(parse({}).data?.limit).toBe(20);
    expect(parse({ limit: "1" }).data?.limit).toBe(1);
    expect(parse({ limit: " 7 " }).data?.limit).toBe(7);
    expect(parse({ limit: "100" }).data?.limit).toBe(100);
    expect(parse({ limit: "101" }).data?.limit).toBe(100);
    expect(parse({ limit: "99999999999999999999999" }).data?.limit).toBe(100);
    expect(ListAttemptsQuery.parse({ limit: "1000" }).limit).toBe(100);
    expect(ListAttemptsQuery.parse({}).limit).toBe(20);
  });

  it("a limit that is not a positive integer is refused with a sentence naming the value", () => {
    for (const limit of ["0", "-1", "abc", "1.5", "", "1e2", "0x10", "000"]) {
      const issue = refusal({ limit });
      expect(issue?.path, limit).toEqual(["limit"]);
      expect(issue?.message, limit).toBe(`limit must be a positive integer (1 to 100); got "${limit}".`);
    }
    expect(refusal({ limit: "x".repeat(40) })?.message).toBe(
      `limit must be a positive integer (1 to 100); got "${"x".repeat(32)}".`,
    );
  });

  it("status keeps the known values of a comma list, once each; none known means all", () => {
    expect(parse({ status: "published" }).data?.status).toEqual(["published"]);
    expect(parse({ status: " draft , bogus,scheduled,draft" }).data?.status).toEqual(["draft", "scheduled"]);
    expect(parse({ status: "bogus,,PUBLISHED" }).data?.status).toBeUndefined();
    expect(parse({ status: "" }).data?.status).toBeUndefined();
    expect(parse({}).data?.status).toBeUndefined();
  });

  it("the OpenAPI document gives limit as an integer with its default, and no maximum since larger values are clamped", () => {
    const doc = buildOpenApiDocument() as unknown as Doc;
    for (const [path, method] of [
      ["/posts", "get"],
      ["/webhooks/{id}/attempts", "get"],
    ] as const) {
      const limit = doc.paths[path]![method]!.parameters!.find((p) => p.in === "query" && p.name === "limit");
      expect(limit?.schema, path).toMatchObject({ type: "integer", minimum: 1, default: 20 });
      expect(limit?.schema, path).not.toHaveProperty("maximum");
      expect(JSON.stringify(limit), path).toMatch(/clamped to 100/);
    }
  });

  it("the service answers a bad limit with the schema's sentence, on posts and on delivery attempts", async () => {
    const store = new MemoryStore();
    const { apiKey } = await provisionUser(store, { accounts: ["x"] });
    const service = createService({ store, logger: silentLogger });
    const headers = { authorization: `Bearer ${apiKey}` };
    const get = async (path: string) => {
      const res = await service.fetch(new Request(`http://localhost/api/v1${path}`, { headers }));
      return { status: res.status, body: (await res.json()) as { error?: string; id?: string } };
    };
    const post = async (path: string, body: unknown) => {
      const res = await service.fetch(
        new Request(`http://localhost/api/v1${path}`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
      return (await res.json()) as { id: string };
    };
    expect(await get("/posts?limit=abc")).toEqual({
      status: 400,
      body: { error: 'limit must be a positive integer (1 to 100); got "abc".' },
    });
    const hook = await post("/webhooks", { url: "https://93.184.215.14/hook" });
    expect(await get(`/webhooks/${hook.id}/attempts?limit=0`)).toEqual({
      status: 400,
      body: { error: 'limit must be a positive integer (1 to 100); got "0".' },
    });
  });
});
