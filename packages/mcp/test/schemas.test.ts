import { readFileSync } from "node:fs";
import { NETWORK_IDS } from "@socialpub/core";
import { describe, expect, it } from "vitest";
import { derivedIdempotencyKey, MCP_VERSION, TOOLS } from "../src/index.ts";
import { toolInputSchema } from "../src/json-schema.ts";

describe("tool input schemas", () => {
  it("are self-contained JSON Schema objects: no $ref a client would have to follow", () => {
    for (const tool of TOOLS) {
      const schema = toolInputSchema(tool.input);
      expect(schema.type, tool.name).toBe("object");
      expect(JSON.stringify(schema), tool.name).not.toContain("$ref");
    }
  });

  it("carry the contract's fields and descriptions", () => {
    const publish = TOOLS.find((t) => t.name === "publish_post")!;
    const schema = toolInputSchema(publish.input) as unknown as {
      properties: Record<string, { description?: string; items?: { enum?: string[] }; pattern?: string }>;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual([
      "caption",
      "captions",
      "platforms",
      "media",
      "thread",
      "split",
      "first_comment",
      "poll",
      "options",
    ]);
    expect(schema.required).toEqual(["platforms"]);
    expect(schema.properties.platforms?.items?.enum).toEqual([...NETWORK_IDS]);
    expect(schema.properties.media?.description).toContain("required by tiktok");
    // One URL or med_ id as the contract has it (with its pattern), or a list of items with alt text.
    expect(JSON.stringify(schema.properties.media)).toContain('"pattern"');
    expect(JSON.stringify(schema.properties.media)).toContain('"alt"');

    const scheduleAt = (
      toolInputSchema(TOOLS.find((t) => t.name === "schedule_post")!.input) as unknown as {
        properties: { at: { anyOf: { description?: string }[] } };
      }
    ).properties.at;
    // The contract's three forms of a time, and "next".
    expect(JSON.stringify(scheduleAt)).toContain("ISO 8601");
    expect(JSON.stringify(scheduleAt)).toContain('"const":"next"');
  });

  it("every tool says whether it only reads", () => {
    for (const tool of TOOLS) {
      expect(typeof tool.annotations.readOnlyHint, tool.name).toBe("boolean");
      if (!tool.annotations.readOnlyHint)
        expect(typeof tool.annotations.destructiveHint, tool.name).toBe("boolean");
      expect(Boolean(tool.write), tool.name).toBe(!tool.annotations.readOnlyHint);
    }
  });
});

describe("derived Idempotency-Key", () => {
  it("is the same for the same call whatever the order of its arguments, and differs otherwise", () => {
    const a = derivedIdempotencyKey("publish_post", { caption: "Hi", platforms: ["x"] });
    expect(derivedIdempotencyKey("publish_post", { platforms: ["x"], caption: "Hi" })).toBe(a);
    expect(derivedIdempotencyKey("publish_post", { caption: "Hi", platforms: ["bluesky"] })).not.toBe(a);
    expect(derivedIdempotencyKey("schedule_post", { caption: "Hi", platforms: ["x"] })).not.toBe(a);
    expect(a).toMatch(/^[\x20-\x7e]{1,255}$/);
  });
});

it("MCP_VERSION is the package's version", () => {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  expect(MCP_VERSION).toBe(manifest.version);
});
