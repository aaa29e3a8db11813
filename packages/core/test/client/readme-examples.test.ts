import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromMarkdown } from "mdast-util-from-markdown";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProgram } from "../../../../test-support/run-program.ts";
import { silentLogger } from "../../src/logger.ts";
import { provisionUser } from "../../src/provision.ts";
import { createService, type Service } from "../../src/service/create-service.ts";
import { MemoryStore } from "../../src/store/memory.ts";
import { serveOverHttp } from "./helpers/http-bridge.ts";

// Every `ts` block of the README is a complete script: each runs as its own process, importing
// @socialpub/core like a user's code, against the reference service over HTTP.
const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(join(packageDir, "README.md"), "utf8");
const blocks = collectCode(readme).filter((block) => block.lang === "ts");

let store: MemoryStore;
let service: Service;
let http: Awaited<ReturnType<typeof serveOverHttp>>;
let env: Record<string, string>;
let workDir: string;

beforeAll(async () => {
  store = new MemoryStore();
  service = createService({ store, logger: silentLogger });
  await service.start();
  http = await serveOverHttp(service.fetch);
  const { apiKey } = await provisionUser(store, { plan: "creator", accounts: ["x", "bluesky", "linkedin"] });
  env = { SOCIALPUB_BASE_URL: `${http.origin}/api/v1`, SOCIALPUB_API_KEY: apiKey };
  // A folder outside the repo where `@socialpub/core` resolves to this package, as it does for users.
  workDir = mkdtempSync(join(tmpdir(), "socialpub-readme-"));
  mkdirSync(join(workDir, "node_modules", "@socialpub"), { recursive: true });
  symlinkSync(packageDir, join(workDir, "node_modules", "@socialpub", "core"), "dir");
  writeFileSync(join(workDir, "package.json"), JSON.stringify({ type: "module" }));
});
afterAll(async () => {
  await http.close();
  await service.close();
  await store.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe("README examples", () => {
  it("has examples to run", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
  });

  // Each example is a Node process of its own, and one waits about 2 s for a scheduled post to be due
  // and published: on a busy machine that takes longer than vitest's default 5 s. The examples' own
  // waits (waitFor's 60 s at most) end sooner than this, so a post that never publishes still fails.
  it.each(blocks.map((block) => [block.line, block]))(
    "the example at README line %i runs",
    { timeout: 90_000 },
    async (line, block) => {
      const file = join(workDir, `example-${line}.ts`);
      writeFileSync(file, block.value);
      const { code, stdout, stderr } = await runProgram(process.execPath, [file], {
        cwd: workDir,
        env: { PATH: process.env.PATH ?? "", ...env },
        timeoutMs: 80_000,
      });
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout).not.toBe("");
    },
  );
});

function collectCode(
  markdown: string,
): Array<{ lang: string | null | undefined; value: string; line: number }> {
  const found: Array<{ lang: string | null | undefined; value: string; line: number }> = [];
  for (const node of fromMarkdown(markdown).children) {
    if (node.type === "code") {
      found.push({ lang: node.lang, value: node.value, line: node.position?.start.line ?? 0 });
    }
  }
  return found;
}
