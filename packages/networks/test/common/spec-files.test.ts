import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { operationScopesOf, readNetworkSpec, specCandidates } from "../../src/common/spec-files.ts";

describe("the networks' API descriptions", () => {
  const saved = process.env.SOCIALPUB_NETWORK_SPECS;
  afterEach(() => {
    if (saved === undefined) delete process.env.SOCIALPUB_NETWORK_SPECS;
    else process.env.SOCIALPUB_NETWORK_SPECS = saved;
  });

  it("are read from the copies inside the repository, whatever lies beside it", () => {
    delete process.env.SOCIALPUB_NETWORK_SPECS;
    const specs = join(import.meta.dirname, "..", "..", "specs");
    expect(specCandidates("discord-openapi.json")).toEqual([
      join(specs, "discord-openapi.json"),
      join(specs, "discord-openapi.json.gz"),
    ]);
    for (const [file, title] of [
      ["discord-openapi.json", "Discord HTTP API (Preview)"],
      ["x-openapi.json", "X API v2"],
      ["pinterest-openapi.json", "Pinterest REST API"],
    ] as const) {
      expect((readNetworkSpec(file) as { info: { title: string } }).info.title, file).toBe(title);
    }
    expect(Object.keys((readNetworkSpec("telegram-bot-api.json") as { methods: object }).methods)).toContain(
      "sendMessage",
    );
  });

  it("are read fresh each time, since the fakes' validators change the tree they are given", () => {
    const first = readNetworkSpec("x-openapi.json") as { info: { title: string } };
    first.info.title = "changed";
    expect((readNetworkSpec("x-openapi.json") as { info: { title: string } }).info.title).toBe("X API v2");
  });

  it("name the scopes each operation requires, which the fakes enforce", () => {
    const pinterest = operationScopesOf("pinterest-openapi.json", "pinterest_oauth2");
    expect(pinterest("POST", "/pins")).toEqual(["boards:read", "boards:write", "pins:read", "pins:write"]);
    expect(pinterest("get", "/boards/549755885175/pins")).toEqual(["boards:read", "pins:read"]);
    expect(pinterest("GET", "/user_account")).toEqual(["user_accounts:read"]);
    expect(pinterest("GET", "/no/such/thing")).toBeNull();
    const x = operationScopesOf("x-openapi.json", "OAuth2UserToken");
    expect(x("GET", "/2/users/me")).toEqual(["users.read", "tweet.read"]);
    expect(x("POST", "/2/media/upload/initialize")).toEqual(["media.write"]);
    expect(x("POST", "/2/media/upload/1880000000000000000/append")).toEqual(["media.write"]);
  });

  it("says where it looked and what to do when the description is missing", () => {
    const empty = mkdtempSync(join(tmpdir(), "specs-"));
    try {
      process.env.SOCIALPUB_NETWORK_SPECS = empty;
      expect(() => readNetworkSpec("telegram-bot-api.json")).toThrow(
        new RegExp(
          `telegram-bot-api.json was not found \\(looked in ${empty}/telegram-bot-api.json, ${empty}/telegram-bot-api.json.gz\\).*packages/networks/specs/`,
        ),
      );
    } finally {
      rmSync(empty, { recursive: true });
    }
  });
});
