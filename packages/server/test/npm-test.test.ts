import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "./support/temp-dir.ts";

// `npm test` prepares what the tests need (scripts/prepare-tests.ts: every workspace package's
// `ci:prepare`) and then runs vitest; CI runs the same command, so there is one preparation.
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

function run(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, args, { cwd, env }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

/** A workspace of three packages: one prepares, one cannot, one has nothing to prepare. */
function workspace(): string {
  const dir = tempDir("socialpub-prepare-");
  dirs.push(dir);
  writeFileSync(dir.file("pnpm-workspace.yaml"), "packages:\n  - packages/*\n");
  const pkg = (name: string, scripts: Record<string, string>) => {
    mkdirSync(dir.file(`packages/${name}`), { recursive: true });
    writeFileSync(dir.file(`packages/${name}/package.json`), JSON.stringify({ name, scripts }));
  };
  pkg("has-tool", { "ci:prepare": `node -e "console.log('tool: ready')"` });
  pkg("lacks-tool", { "ci:prepare": `node -e "console.error('tool: not found here'); process.exit(1)"` });
  pkg("needs-nothing", { test: "vitest run" });
  return dir.path;
}

describe("the tests' preparation", () => {
  it("runs each package's ci:prepare, and outside CI goes on past a tool that cannot be had, in one line", {
    timeout: 60_000,
  }, async () => {
    const env = { ...process.env };
    delete env.CI;
    const result = await run([join(repoRoot, "scripts/prepare-tests.ts"), workspace()], repoRoot, env);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain("[prepare] has-tool: tool: ready");
    expect(result.stderr).toContain("[prepare] lacks-tool: tool: not found here");
    const said = result.stderr.split("\n").filter((line) => line.includes("could not be prepared"));
    expect(said).toEqual([
      "[prepare] lacks-tool could not be prepared (exit 1: tool: not found here); the tests that need it skip or say how to install it",
    ]);
    expect(result.stdout).toContain("[prepare] 1 of 2 packages prepared");
    expect(result.stdout + result.stderr).not.toContain("needs-nothing");
  });

  it("in CI fails when a tool cannot be had", { timeout: 60_000 }, async () => {
    const result = await run([join(repoRoot, "scripts/prepare-tests.ts"), workspace()], repoRoot, {
      ...process.env,
      CI: "true",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "lacks-tool could not be prepared (exit 1: tool: not found here); CI needs it",
    );
  });
});

describe("npm test", () => {
  /**
   * A clone whose dependencies are installed, with a preparation and a pnpm that only note they ran
   * (and exit as told), so the order of the two steps and the exit code show.
   */
  function clone(prepareExit: number, vitestExit: number): { path: string; calls: () => string[] } {
    const dir = tempDir("socialpub-npm-test-");
    dirs.push(dir);
    for (const file of ["scripts/toolchain.mjs", ".nvmrc", "package.json", "pnpm-lock.yaml"]) {
      mkdirSync(dirname(dir.file(file)), { recursive: true });
      copyFileSync(join(repoRoot, file), dir.file(file));
    }
    const calls = dir.file("calls.log");
    mkdirSync(dir.file("node_modules"));
    writeFileSync(dir.file("node_modules/.modules.yaml"), "");
    writeFileSync(
      dir.file("scripts/prepare-tests.ts"),
      `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(calls)}, "prepare\\n");\nprocess.exit(${prepareExit});\n`,
    );
    // toolchain.mjs puts .tools/pnpm/node_modules/.bin first on the PATH once pnpm is there.
    const bin = dir.file(".tools/pnpm/node_modules/.bin");
    mkdirSync(bin, { recursive: true });
    const pnpmVersion = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).packageManager.split(
      "@",
    )[1];
    mkdirSync(dir.file(".tools/pnpm/node_modules/pnpm"), { recursive: true });
    writeFileSync(
      dir.file(".tools/pnpm/node_modules/pnpm/package.json"),
      JSON.stringify({ version: pnpmVersion }),
    );
    writeFileSync(join(bin, "pnpm"), `#!/bin/sh\necho "pnpm $*" >> "${calls}"\nexit ${vitestExit}\n`);
    chmodSync(join(bin, "pnpm"), 0o755);
    return { path: dir.path, calls: () => readFileSync(calls, "utf8").trim().split("\n") };
  }

  it("prepares what the tests need, then runs vitest with the arguments given", {
    timeout: 60_000,
  }, async () => {
    const { path, calls } = clone(0, 0);
    const result = await run(
      [join(path, "scripts/toolchain.mjs"), "test", "--project", "core"],
      path,
      process.env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(calls()).toEqual(["prepare", "pnpm run test:run --project core"]);
  });

  it("runs the tests even when the preparation failed, and then fails", { timeout: 60_000 }, async () => {
    const { path, calls } = clone(1, 0);
    const result = await run([join(path, "scripts/toolchain.mjs"), "test"], path, process.env);
    expect(calls()).toEqual(["prepare", "pnpm run test:run"]);
    expect(result.code).toBe(1);
  });
});
