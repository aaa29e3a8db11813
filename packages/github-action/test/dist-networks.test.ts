// The committed bundle must hold only the network adapters direct mode uses: were another network's
// code in it, every change to that network would make dist/ stale and fail CI for work that does not
// touch the Action.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));

/** Every source file bundled into dist/, as its source maps name them (relative to dist/ or dist/chunks/). */
function bundledSources(): string[] {
  return readdirSync(dist, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".js.map"))
    .flatMap((name) => (JSON.parse(readFileSync(join(dist, name), "utf8")) as { sources: string[] }).sources);
}

/** The networks package's folders whose modules are in the bundle. */
function bundledNetworkFolders(): Set<string> {
  const folders = new Set<string>();
  for (const source of bundledSources()) {
    const match = /^(?:\.\.\/)+networks\/src\/([^/]+)\//.exec(source);
    if (match) folders.add(match[1] ?? "");
  }
  return folders;
}

describe("dist/", () => {
  it("bundles the Bluesky, Telegram, Discord and X adapters and no other network's code", () => {
    expect([...bundledNetworkFolders()].sort()).toEqual(["bluesky", "common", "discord", "telegram", "x"]);
  });

  it("bundles none of the networks' test stand-ins or the package's index", () => {
    const networks = bundledSources().filter((source) => /^(?:\.\.\/)+networks\/src\//.test(source));
    expect(networks.length).toBeGreaterThan(0);
    expect(networks.filter((source) => /networks\/src\/index\.ts$/.test(source))).toEqual([]);
    expect(networks.filter((source) => /networks\/src\/.*\/(fake|peer)\//.test(source))).toEqual([]);
  });
});
