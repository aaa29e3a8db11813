import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromMarkdown } from "mdast-util-from-markdown";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLISHABLE, packPackages, root } from "../../../scripts/pack-packages.ts";
import { runProgram } from "../../../test-support/run-program.ts";

// The packages as a user gets them: each built and packed as it would be published, the tarballs
// installed with npm into an empty folder outside the workspace, then each README's first example run
// there. The server is the one from its own tarball (its `socialpub-server` bin), started on port 0.
let work: string;
let packs: string;
let server: ChildProcess | undefined;
let baseUrl: string;
let apiKey: string;

/** Runs a command in the install folder to its end; answers its exit code and output. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return runProgram(command, args, { cwd: work, env, timeoutMs: 300_000 });
}

function firstExample(packageDir: string, lang: string): string {
  const readme = readFileSync(join(root, "packages", packageDir, "README.md"), "utf8");
  const block = fromMarkdown(readme).children.find((node) => node.type === "code" && node.lang === lang);
  if (block?.type !== "code") throw new Error(`packages/${packageDir}/README.md has no ${lang} block`);
  return block.value;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "socialpub-packed-"));
  packs = mkdtempSync(join(tmpdir(), "socialpub-packs-"));
  // The MCP server has its own packed-install test (packages/mcp/test/packed-install.test.ts).
  const tarballs = [
    ...packPackages(
      packs,
      PUBLISHABLE.filter((p) => p.name !== "@socialpub/mcp"),
    ).values(),
  ];
  writeFileSync(
    join(work, "package.json"),
    JSON.stringify({ name: "packed-install", private: true, type: "module" }),
  );
  const installed = await run("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--prefer-offline",
    "--loglevel=error",
    ...tarballs,
  ]);
  if (installed.code !== 0) throw new Error(`npm install failed: ${installed.stderr}`);

  // The server from its tarball, with a dev user whose key it prints once.
  server = spawn(
    join(work, "node_modules", ".bin", "socialpub-server"),
    ["start", "--dev", "--db", "./server.db", "--port", "0"],
    {
      cwd: work,
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    server!.stdout!.on("data", (chunk) => {
      output += chunk;
      const key = /API key: (sp_test_\S+)/.exec(output);
      const url = /Base URL: (\S+)/.exec(output);
      if (key && url) {
        apiKey = key[1]!;
        baseUrl = url[1]!;
        resolve();
      }
    });
    server!.stderr!.on("data", (chunk) => {
      output += chunk;
    });
    server!.once("exit", (code) =>
      reject(new Error(`the packed server exited (${code}) before it listened: ${output}`)),
    );
  });
}, 900_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill("SIGTERM");
    await once(server, "exit");
  }
  rmSync(work, { recursive: true, force: true });
  rmSync(packs, { recursive: true, force: true });
});

describe("the packed packages, installed with npm", { timeout: 120_000 }, () => {
  it("@socialpub/core: the README's first example runs against the packed server", async () => {
    writeFileSync(join(work, "core-example.ts"), firstExample("core", "ts"));
    const { code, stdout, stderr } = await run(process.execPath, ["core-example.ts"], {
      PATH: process.env.PATH ?? "",
      SOCIALPUB_API_KEY: apiKey,
      SOCIALPUB_BASE_URL: baseUrl,
    });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/API calls used/);
    expect(stdout).toMatch(/post_\w+ published/);
  });

  it("@socialpub/networks: the README's first example runs", async () => {
    writeFileSync(
      join(work, "networks-example.ts"),
      `${firstExample("networks", "ts")}\nconsole.log("ok");\n`,
    );
    const { code, stdout, stderr } = await run(process.execPath, ["networks-example.ts"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout.trim()).toBe("ok");
  });

  it("@socialpub/server: its bin serves the API and the dashboard page from the installed packages", async () => {
    const me = await fetch(`${baseUrl}/me`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ plan: "studio" });
    const page = await fetch(new URL("/", baseUrl));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
  });
});
