import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bundle } from "../../scripts/bundle.ts";
import { api, type ServerProcess, startListeningProcess } from "../support/cli-process.ts";
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
    // The page as the dashboard's test setup built it; built here only when nothing built it.
    const pageBuilt = existsSync(
      fileURLToPath(new URL("../../../dashboard/dist/index.html", import.meta.url)),
    );
    await bundle(built, { buildDashboard: !pageBuilt });
    const db = await newDatabase("bundle");
    server = await startListeningProcess([
      join(built, "socialpub-server.js"),
      "start",
      "--dev",
      "--port",
      "0",
      "--db",
      db,
      "--media-dir",
      dir.file("media"),
      "--log-level",
      "warn",
    ]);
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
