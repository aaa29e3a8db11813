import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../src/openapi/document.ts";

type Operation = {
  tags: string[];
  parameters?: { in: string; name: string }[];
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
};
const paths = () =>
  (buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, Operation>> }).paths;
const schemaOf = (op: Operation, status: string) =>
  op.responses[status]?.content?.["application/json"]?.schema;

describe("OpenAPI document: API keys", () => {
  it("documents GET /keys, POST /keys and DELETE /keys/{id} with the key shown only in POST's answer", () => {
    const keys = paths()["/keys"]!;
    expect(keys.get!.tags).toEqual(["Keys"]);
    expect(schemaOf(keys.get!, "200")).toEqual({ $ref: "#/components/schemas/ApiKeyList" });
    expect(schemaOf(keys.post!, "201")).toEqual({ $ref: "#/components/schemas/CreatedApiKey" });
    expect(Object.keys(keys.post!.responses)).toEqual(expect.arrayContaining(["400", "401", "403", "429"]));
    const revoke = paths()["/keys/{id}"]!.delete!;
    expect(Object.keys(revoke.responses)).toEqual(expect.arrayContaining(["200", "401", "403", "404"]));
    const doc = buildOpenApiDocument() as unknown as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(Object.keys(doc.components.schemas.ApiKey!.properties).sort()).toEqual([
      "created_at",
      "hint",
      "id",
      "last_used_at",
      "mode",
      "name",
    ]);
    expect(doc.components.schemas.ApiKey!.properties).not.toHaveProperty("key");
  });

  it("declares Idempotency-Key on DELETE /keys/{id} but not on POST /keys, whose answer is never kept", () => {
    const header = (op: Operation) =>
      op.parameters?.find((p) => p.in === "header" && p.name === "Idempotency-Key");
    expect(header(paths()["/keys/{id}"]!.delete!)).toBeDefined();
    expect(header(paths()["/keys"]!.post!)).toBeUndefined();
    expect(Object.keys(paths()["/keys"]!.post!.responses)).not.toContain("422");
  });
});
