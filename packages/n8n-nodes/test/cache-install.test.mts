import { execFile, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installOnce, lockDirOf } from "../../../scripts/cache-install.mts";

const child = join(dirname(fileURLToPath(import.meta.url)), "support", "install-race-child.mts");

let root: string;
let cacheDir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "socialpub-cache-install-"));
  cacheDir = join(root, "n8n-test");
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const isReady = (dir: string) => existsSync(join(dir, "ready"));
const completeInstall = (dir: string) => {
  writeFileSync(join(dir, "payload"), "complete");
  writeFileSync(join(dir, "ready"), "");
};
/** The id of a process that has ended. */
const endedPid = () => spawnSync(process.execPath, ["-e", ""]).pid as number;

describe("installOnce (the n8n cache install)", () => {
  it("installs once when several processes fill the cache at the same time; each ends with it complete", async () => {
    const runsDir = join(root, "runs");
    mkdirSync(runsDir);
    const results = await Promise.all(
      [1, 2, 3].map(() => promisify(execFile)(process.execPath, [child, cacheDir, runsDir, "3"])),
    );
    expect(readFileSync(join(runsDir, "installs"), "utf8").trim().split("\n")).toHaveLength(1);
    expect(results.map((result) => result.stdout.trim()).sort()).toEqual([
      "installed",
      "installed by another process",
      "installed by another process",
    ]);
    expect(readFileSync(join(cacheDir, "payload"), "utf8")).toBe("complete");
    expect(readdirSync(root).sort()).toEqual(["n8n-test", "runs"]);
  }, 30_000);

  it("leaves neither a cache nor its lock when the install fails, so the next run starts clean", async () => {
    await expect(
      installOnce({
        cacheDir,
        isReady,
        install: (dir) => {
          writeFileSync(join(dir, "payload"), "half");
          throw new Error("npm install failed");
        },
      }),
    ).rejects.toThrow("npm install failed");
    expect(readdirSync(root)).toEqual([]);
    expect(await installOnce({ cacheDir, isReady, install: completeInstall })).toBe("installed");
    expect(readFileSync(join(cacheDir, "payload"), "utf8")).toBe("complete");
  });

  it("does not install when the cache is complete", async () => {
    mkdirSync(cacheDir);
    completeInstall(cacheDir);
    const install = () => {
      throw new Error("should not run");
    };
    expect(await installOnce({ cacheDir, isReady, install })).toBe("present");
  });

  it("takes over a lock whose process has ended, and removes what a killed install left", async () => {
    const pid = endedPid();
    mkdirSync(lockDirOf(cacheDir));
    writeFileSync(
      join(lockDirOf(cacheDir), "owner.json"),
      JSON.stringify({ pid, host: hostname(), since: Date.now() }),
    );
    mkdirSync(`${cacheDir}.installing-${pid}`);
    expect(await installOnce({ cacheDir, isReady, install: completeInstall, pollMs: 10 })).toBe("installed");
    expect(readdirSync(root)).toEqual(["n8n-test"]);
  });

  it("replaces a cache folder left incomplete by an install that wrote in place", async () => {
    mkdirSync(cacheDir);
    writeFileSync(join(cacheDir, "payload"), "half");
    expect(await installOnce({ cacheDir, isReady, install: completeInstall })).toBe("installed");
    expect(readFileSync(join(cacheDir, "payload"), "utf8")).toBe("complete");
    expect(readdirSync(root)).toEqual(["n8n-test"]);
  });

  it("refuses an install that finished without making the cache ready", async () => {
    const install = (dir: string) => writeFileSync(join(dir, "payload"), "no marker");
    await expect(installOnce({ cacheDir, isReady, install })).rejects.toThrow(/finished incomplete/);
    expect(readdirSync(root)).toEqual([]);
  });
});
