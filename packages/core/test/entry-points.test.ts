import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { withProcessSlot } from "../../../test-support/process-slots.ts";
import { type EntryLoad, loadEntry, packageOf } from "../scripts/loaded-modules.ts";

// Each layer is its own entry point, so a program that only calls a service does not load the service.
// Every import runs in a fresh Node process started in this package's folder, where
// `@socialpub/core/...` resolves through package.json's exports as it does for a user.
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const SERVICE_ONLY = ["hono", "zod-openapi", "file-type", "ipaddr.js", "ulid"];

function load(specifier: string): Promise<EntryLoad> {
  return withProcessSlot(() => loadEntry(specifier, { cwd: packageDir }));
}

describe("entry points", { timeout: 60_000 }, () => {
  it("@socialpub/core/client loads neither hono, zod-openapi nor file-type, nor any service file", async () => {
    const { packages, urls } = await load("@socialpub/core/client");
    for (const name of SERVICE_ONLY) expect(packages).not.toContain(name);
    expect(packages).toEqual(["http-link-header", "undici", "zod"]);
    const ownFiles = urls.filter((url) => packageOf(url) === undefined);
    expect(ownFiles.some((url) => url.endsWith("/src/client/client.ts"))).toBe(true);
    expect(
      ownFiles.filter((url) =>
        /\/src\/(service|publishing|net|store|scheduler|openapi|networks)\/|\/src\/logger\.ts$/.test(url),
      ),
    ).toEqual([]);
  });

  it("@socialpub/core/client gives the client, its errors and webhook verification", async () => {
    const client = await import("@socialpub/core/client");
    expect(typeof client.SocialPublishClient).toBe("function");
    expect(typeof client.SocialPublishError).toBe("function");
    expect(typeof client.verifyWebhook).toBe("function");
    expect(typeof client.signWebhook).toBe("function");
    expect("createService" in client).toBe(false);
  });

  it("@socialpub/core/contract loads zod and the schemas only", async () => {
    const { packages, urls } = await load("@socialpub/core/contract");
    expect(packages).toEqual(["zod"]);
    const ownFiles = urls.filter((url) => packageOf(url) === undefined);
    expect(ownFiles.every((url) => /\/src\/contract\/[^/]+\.ts$/.test(url))).toBe(true);
    const contract = await import("@socialpub/core/contract");
    expect(contract.CreatePostBody.safeParse({ caption: "hi", platforms: ["x"] }).success).toBe(true);
  });

  it("@socialpub/core/service loads the service's dependencies and gives createService", async () => {
    // The other side of the client's check: the same probe sees these packages when they are loaded.
    const { packages } = await load("@socialpub/core/service");
    for (const name of ["hono", "zod-openapi", "file-type"]) expect(packages).toContain(name);
    const service = await import("@socialpub/core/service");
    expect(typeof service.createService).toBe("function");
    expect(typeof service.MemoryStore).toBe("function");
    expect(typeof service.Scheduler).toBe("function");
  });

  it("the root entry still exports every layer", async () => {
    const [root, client, contract, service, testing] = await Promise.all([
      import("@socialpub/core"),
      import("@socialpub/core/client"),
      import("@socialpub/core/contract"),
      import("@socialpub/core/service"),
      import("@socialpub/core/testing"),
    ]);
    const rootNames = Object.keys(root).sort();
    const layerNames = [...new Set([client, contract, service].flatMap((m) => Object.keys(m)))].sort();
    expect(rootNames).toEqual(layerNames);
    expect(root.SocialPublishClient).toBe(client.SocialPublishClient);
    expect(root.createService).toBe(service.createService);
    expect(typeof testing.describeServiceConformance).toBe("function");
  });
});
