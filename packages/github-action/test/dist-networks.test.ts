// The committed bundle must hold only the network adapters direct mode uses: were another network's
// code in it, every change to that network would make dist/ stale and fail CI for work that does not
// touch the Action.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const bundle = readFileSync(new URL("../dist/index.js", import.meta.url), "utf8");

/** The networks package's folders whose modules webpack put in the bundle (it names each one). */
function bundledNetworkFolders(): Set<string> {
  const folders = new Set<string>();
  for (const match of bundle.matchAll(/MODULE: \.\.\/networks\/src\/([^\s/]+)/g)) folders.add(match[1] ?? "");
  return folders;
}

describe("dist/index.js", () => {
  it("bundles the Bluesky, Telegram and Discord adapters and no other network's code", () => {
    expect([...bundledNetworkFolders()].sort()).toEqual(["bluesky", "common", "discord", "telegram"]);
  });

  it("bundles none of the networks' test stand-ins or the package's index", () => {
    expect(bundle).not.toMatch(/MODULE: \.\.\/networks\/src\/index\.ts/);
    expect(bundle).not.toMatch(/MODULE: \.\.\/networks\/src\/[^\s]*\/(fake|peer)\//);
  });
});
