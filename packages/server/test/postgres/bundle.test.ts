import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildBundle, startBundledServer } from "../support/bundled-server.ts";
import { api, type ServerProcess } from "../support/cli-process.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newDatabase } from "./support/databases.ts";

// The production build (../bundle.test.ts) on PostgreSQL: the store is a chunk of its own in the bundle,
// loaded only when --db is a postgres:// URL.
describe("the bundled server on PostgreSQL", () => {
  const dir = tempDir("socialpub-bundle-pg-");
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await server?.stop();
    dir.remove();
  });

  it("starts on a database URL, serves the dev key it printed, and publishes", async () => {
    const built = join(dir.path, "bundle");
    await buildBundle(built);
    server = await startBundledServer(
      built,
      ["--db", await newDatabase("bundle"), "--media-dir", dir.file("media")],
      // PostgreSQL has no data folder for a key of the server's own.
      { SOCIALPUB_SECRET_KEY: randomBytes(32).toString("base64") },
    );
    expect(server.output()).toMatch(/database: postgres:\/\//);
    const key = server.printedKey!;
    expect(key).toMatch(/^sp_test_/);
    expect((await api(server, key, "GET", "/me")).status).toBe(200);
    const created = await api(server, key, "POST", "/posts", {
      caption: "From the bundle",
      platforms: ["x"],
    });
    expect(created.status).toBe(201);
    expect((await api(server, key, "GET", `/posts/${created.body.id}`)).body.status).toBe("published");
  }, 120_000);
});
