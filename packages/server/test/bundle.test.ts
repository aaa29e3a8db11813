import { execFile } from "node:child_process";
import { cpSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };
import { SERVER_VERSION } from "../src/version.ts";
import { buildBundle, startBundledServer } from "./support/bundled-server.ts";
import { api, type ServerProcess } from "./support/cli-process.ts";
import { tempDir } from "./support/temp-dir.ts";

// The production build: `pnpm --filter @socialpub/server bundle`, copied where there is no
// node_modules and no workspace, and run as docs/deploy.md says.
describe("the bundled server", () => {
  const dir = tempDir("socialpub-bundle-");
  const copied = join(dir.path, "elsewhere", "socialpub");
  let server: ServerProcess;

  beforeAll(async () => {
    const built = join(dir.path, "bundle");
    await buildBundle(built);
    cpSync(built, copied, { recursive: true });
    server = await startBundledServer(copied, ["--db", join(dir.path, "bundled.db")]);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    dir.remove();
  });

  it("is plain JavaScript: no TypeScript source is left to strip", () => {
    const files = readdirSync(copied, { recursive: true, encoding: "utf8" });
    expect(files.filter((file) => file.endsWith(".ts"))).toEqual([]);
    expect(existsSync(join(copied, "socialpub-server.js"))).toBe(true);
    expect(existsSync(join(copied, "index.js"))).toBe(true);
  });

  it("serves the API with the sandbox key it printed, and publishes", async () => {
    const key = server.printedKey;
    expect(key).toMatch(/^sp_test_/);
    const me = await api(server, key!, "GET", "/me");
    expect(me.status).toBe(200);
    expect(me.body.plan).toBe("studio");

    const created = await api(server, key!, "POST", "/posts", {
      caption: "From the bundle",
      platforms: ["x"],
    });
    expect(created.status).toBe(201);
    const post = await api(server, key!, "GET", `/posts/${created.body.id}`);
    expect(post.body.status).toBe("published");
  });

  it("serves the dashboard page copied beside it", async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("socialpub sandbox dashboard");
  });

  it("runs as a command through its shebang, and prints the package's version", async () => {
    const { stdout } = await promisify(execFile)(join(copied, "socialpub-server.js"), ["--version"]);
    expect(stdout.trim()).toBe(packageJson.version);
  });
});

describe("SERVER_VERSION", () => {
  it("is package.json's version", () => {
    expect(SERVER_VERSION).toBe(packageJson.version);
  });
});
