import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Operation } from "../nodes/SocialPublish/operation.ts";

// Each operation of the Social Publish node lives in a file named after it:
// resources/<resource>/<operation>.ts, whatever else (fields, helpers) sits beside it.
type Module = Record<string, unknown>;
const resourcesDir = new URL("../nodes/SocialPublish/resources/", import.meta.url);
const resources = readdirSync(fileURLToPath(resourcesDir), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe("the Social Publish node's files", () => {
  it.each(resources)("every %s operation is implemented in the file named after it", async (resource) => {
    const index = (await import(new URL(`${resource}/index.ts`, resourcesDir).href)) as Module;
    const operations = index[`${resource}Operations`] as Record<string, Operation>;
    expect(Object.keys(operations).length).toBeGreaterThan(0);
    for (const [name, operation] of Object.entries(operations)) {
      const file = (await import(new URL(`${resource}/${name}.ts`, resourcesDir).href)) as Module;
      expect(Object.values(file), `${resource}/${name}.ts`).toContain(operation);
    }
  });
});
