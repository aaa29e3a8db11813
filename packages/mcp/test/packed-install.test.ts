import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPackages, publishable, root } from "../../../scripts/pack-packages.ts";
import { withProcessSlot } from "../../../test-support/process-slots.ts";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.ts";

// @socialpub/mcp as a user gets it: built and packed as it would be published (with the @socialpub/core
// it depends on), the tarballs installed with npm into an empty folder outside the workspace, then
// started the way the README's first example says, and listed by the MCP Inspector's command line.

/** The Inspector version the check runs; its CLI mode is `--cli`. */
const INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";

let work: string;
let packs: string;
let api: ReferenceServer;

/** Runs a command in the install folder to its end; answers its exit code and output. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return withProcessSlot(async () => {
    const child = spawn(command, args, { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const [code] = await once(child, "exit");
    return { code: code as number | null, stdout, stderr };
  });
}

/** The first code block of the package's README in `lang`. */
function firstExample(lang: string): string {
  const readme = readFileSync(join(root, "packages", "mcp", "README.md"), "utf8");
  const block = new RegExp(`^\`\`\`${lang}\n([\\s\\S]*?)\n\`\`\`$`, "m").exec(readme);
  if (!block) throw new Error(`packages/mcp/README.md has no ${lang} block`);
  return block[1]!;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "socialpub-mcp-packed-"));
  packs = mkdtempSync(join(tmpdir(), "socialpub-mcp-packs-"));
  const tarballs = packPackages(packs, [publishable("@socialpub/core"), publishable("@socialpub/mcp")]);
  writeFileSync(
    join(work, "package.json"),
    JSON.stringify({ name: "packed-mcp-install", private: true, type: "module" }),
  );
  const installed = await run("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--prefer-offline",
    "--loglevel=error",
    ...tarballs.values(),
  ]);
  if (installed.code !== 0) throw new Error(`npm install failed: ${installed.stderr}`);
  api = await startReferenceServer();
}, 900_000);

afterAll(async () => {
  await api?.stop();
  rmSync(work, { recursive: true, force: true });
  rmSync(packs, { recursive: true, force: true });
});

describe("@socialpub/mcp packed, installed with npm", { timeout: 300_000 }, () => {
  it("the README's first example starts it: an MCP client lists its tools and calls one", async () => {
    const config = JSON.parse(firstExample("json")) as {
      mcpServers: { socialpub: { command: string; args: string[]; env: Record<string, string> } };
    };
    const { command, args, env } = config.mcpServers.socialpub;
    expect(Object.keys(env).sort()).toEqual(["SOCIALPUB_API_KEY", "SOCIALPUB_BASE_URL"]);
    // `npx -y @socialpub/mcp` as written, run where the tarball is installed: npx runs that one.
    const transport = new StdioClientTransport({
      command,
      args,
      cwd: work,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: work,
        SOCIALPUB_API_KEY: api.apiKey,
        SOCIALPUB_BASE_URL: api.baseUrl,
      },
      stderr: "pipe",
    });
    const client = new Client({ name: "packed-install-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["validate_post", "retry_post"]));
      const result = (await client.callTool({
        name: "validate_post",
        arguments: { caption: "From the packed server", platforms: ["x"] },
      })) as { isError?: boolean; content: { type: string; text: string }[] };
      expect(result.isError ?? false).toBe(false);
      expect(JSON.parse(result.content[0]!.text)).toMatchObject({
        valid: true,
        targets: [{ platform: "x", parts: [{ text: "From the packed server" }] }],
      });
    } finally {
      await client.close();
    }
  });

  it("the MCP Inspector's command line lists its tools over stdio", async (ctx) => {
    const added = await run("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--loglevel=error",
      INSPECTOR,
    ]);
    if (added.code !== 0) {
      ctx.skip(`${INSPECTOR} could not be installed from npm here: ${added.stderr.trim().split("\n")[0]}`);
    }
    const { code, stdout, stderr } = await run(
      join(work, "node_modules", ".bin", "mcp-inspector"),
      [
        "--cli",
        "-e",
        `SOCIALPUB_API_KEY=${api.apiKey}`,
        "-e",
        `SOCIALPUB_BASE_URL=${api.baseUrl}`,
        join(work, "node_modules", ".bin", "socialpub-mcp"),
        "--method",
        "tools/list",
      ],
      { PATH: process.env.PATH ?? "", HOME: work },
    );
    expect(code, stderr).toBe(0);
    const listed = JSON.parse(stdout) as {
      tools: { name: string; annotations?: { readOnlyHint?: boolean } }[];
    };
    const byName = new Map(listed.tools.map((t) => [t.name, t]));
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining(["publish_post", "validate_post", "retry_post"]),
    );
    expect(byName.get("validate_post")?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get("retry_post")?.annotations?.readOnlyHint).toBe(false);
    expect(stdout + stderr).not.toContain(api.apiKey);
  });
});
