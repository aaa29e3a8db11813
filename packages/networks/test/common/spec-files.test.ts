import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readNetworkSpec, specCandidates } from "../../src/common/spec-files.ts";

describe("finding the networks' API descriptions", () => {
  const saved = process.env.SOCIALPUB_NETWORK_SPECS;
  afterEach(() => {
    if (saved === undefined) delete process.env.SOCIALPUB_NETWORK_SPECS;
    else process.env.SOCIALPUB_NETWORK_SPECS = saved;
  });

  it("looks in shared/specs/networks beside the repository first, then in the folders above", () => {
    delete process.env.SOCIALPUB_NETWORK_SPECS;
    const [first, second] = specCandidates("discord-openapi.json");
    const repo = join(import.meta.dirname, "..", "..", "..", "..");
    expect(first).toBe(join(repo, "..", "shared", "specs", "networks", "discord-openapi.json"));
    expect(second).toBe(join(repo, "..", "..", "shared", "specs", "networks", "discord-openapi.json"));
  });

  it("says where it looked and what to do when the description is missing", () => {
    const empty = mkdtempSync(join(tmpdir(), "specs-"));
    try {
      process.env.SOCIALPUB_NETWORK_SPECS = empty;
      expect(() => readNetworkSpec("telegram-bot-api.json")).toThrow(
        new RegExp(
          `telegram-bot-api.json was not found \\(looked in ${empty}/telegram-bot-api.json\\).*../shared/specs/networks`,
        ),
      );
    } finally {
      rmSync(empty, { recursive: true });
    }
  });
});
