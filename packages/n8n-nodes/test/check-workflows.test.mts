// scripts/check-workflows.mts, the package check that runs actionlint over the repository's GitHub
// Actions workflows (the release workflow that publishes this package among them).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const script = join(dirname(dirname(fileURLToPath(import.meta.url))), "scripts", "check-workflows.mts");

async function check(...folders: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, ...folders]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

describe("the workflow check (actionlint)", () => {
  it("passes the repository's workflows and example workflows", async () => {
    const result = await check();
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^actionlint: \d+ workflow file\(s\) pass$/m);
  }, 120_000);

  it("fails on a workflow with a wrong permission, a missing job and an unknown action input, naming each", async () => {
    scratch = mkdtempSync(join(tmpdir(), "socialpub-workflows-"));
    writeFileSync(
      join(scratch, "release.yml"),
      [
        "on: push",
        "jobs:",
        "  publish:",
        "    runs-on: ubuntu-latest",
        "    needs: [build]",
        "    permissions:",
        "      id-token: writ",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "        with:",
        "          fetch-dept: 0",
        "",
      ].join("\n"),
    );
    const result = await check(scratch);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`release.yml:3:3: job "publish" needs job "build" which does not exist`);
    expect(result.stderr).toContain(`release.yml:7:17: "writ" is invalid for permission of scope "id-token"`);
    expect(result.stderr).toContain(`release.yml:11:11: input "fetch-dept" is not defined`);
    expect(result.stderr).toContain("actionlint: 3 finding(s) in 1 workflow file(s)");
  }, 120_000);

  it("fails when it finds no workflow", async () => {
    scratch = mkdtempSync(join(tmpdir(), "socialpub-workflows-"));
    const result = await check(scratch);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No workflow found");
  });
});
