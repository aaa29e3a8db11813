import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GENERATED_PATH, renderAll, renderContract } from "../scripts/generate-contract.mts";

describe("the generated contract file", () => {
  it("matches what @socialpub/core defines today (run `pnpm --filter n8n-nodes-socialpub generate` when it drifts)", () => {
    expect(readFileSync(GENERATED_PATH, "utf8")).toBe(renderContract());
  });

  it("the connect fields match the networks' descriptions in @socialpub/networks (regenerate when they drift)", () => {
    for (const [path, expected] of renderAll()) expect(readFileSync(path, "utf8"), path).toBe(expected);
  });
});
