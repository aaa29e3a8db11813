import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../src/openapi/document.ts";

/*
 * What tools users point at the document make of it: openapi-typescript's types, used by an
 * openapi-fetch program that calls every operation (test/fixtures/openapi-fetch/client.ts), must
 * type-check; Redocly's recommended rules must find no error.
 */

const run = promisify(execFile);
const core = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "socialpub-openapi-"));
  await writeFile(join(dir, "openapi.json"), JSON.stringify(buildOpenApiDocument(), null, 2));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs a Node script with the given arguments in the core package; its output, and failure. */
async function node(script: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], {
      cwd: core,
      maxBuffer: 32 * 1024 * 1024,
    });
    return { ok: true, stdout, stderr };
  } catch (err) {
    const { stdout, stderr } = err as { stdout: string; stderr: string };
    return { ok: false, stdout, stderr };
  }
}

describe("the OpenAPI document in the tools users point at it", () => {
  it("openapi-typescript types it so that an openapi-fetch program calling every operation type-checks", async () => {
    const ast = await openapiTS(new URL(`file://${join(dir, "openapi.json")}`));
    await writeFile(join(dir, "socialpub-api.ts"), astToString(ast));
    await copyFile(join(core, "test/fixtures/openapi-fetch/client.ts"), join(dir, "client.ts"));
    // openapi-fetch is found from the temporary folder as from this package.
    await symlink(join(core, "node_modules"), join(dir, "node_modules"), "dir");
    await writeFile(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2023",
          lib: ["es2024", "dom"],
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          types: [],
        },
        files: ["client.ts"],
      }),
    );
    const tsc = await node(require.resolve("typescript/bin/tsc"), ["-p", join(dir, "tsconfig.json")]);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.ok).toBe(true);
  });

  it("Redocly's recommended rules find no error (warnings are listed), and do find a broken document's", async () => {
    const broken = JSON.parse(JSON.stringify(buildOpenApiDocument()));
    // Two operations with one id, and an answer without its description.
    broken.paths["/me"].get.operationId = "getPost";
    delete broken.paths["/accounts"].get.responses["200"].description;
    await writeFile(join(dir, "broken.json"), JSON.stringify(broken, null, 2));
    const redocly = join(dirname(require.resolve("@redocly/cli/package.json")), "bin", "cli.js");
    const lint = async (file: string) => {
      const out = await node(redocly, [
        "lint",
        join(dir, file),
        "--config",
        "redocly.yaml",
        "--format",
        "json",
      ]);
      return JSON.parse(out.stdout) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
      };
    };
    const [ours, theirs] = await Promise.all([lint("openapi.json"), lint("broken.json")]);
    for (const p of ours.problems)
      console.log(`redocly ${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(ours.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(ours.totals.errors).toBe(0);
    expect(
      theirs.problems
        .filter((p) => p.severity === "error")
        .map((p) => p.ruleId)
        .sort(),
    ).toEqual(expect.arrayContaining(["operation-operationId-unique", "struct"]));
  });
});
