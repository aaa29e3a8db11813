// Fills a cache folder that several processes may want at once (parallel CI jobs, two clones or two
// test runs on one machine). Two things keep it whole:
// - the install runs in a folder of its own beside the cache and is renamed into place only once it is
//   complete, so the cache folder is either absent or complete: a crash, a Ctrl-C or a second
//   installer can never leave it half-written;
// - a lock folder (`<cache>.lock`, created with mkdir, which only one process can do) makes the others
//   wait for the first install instead of repeating it. A lock whose process is gone is taken over.
// Shared by the installers of the tools some tests need (n8n, the Bluesky PDS), with the npm install
// they have in common.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";

export interface CacheInstall {
  cacheDir: string;
  /** Whether `dir` holds a complete install (checked on the cache, and on the new install before use). */
  isReady(dir: string): boolean;
  /** Installs into `dir`, an empty folder that becomes the cache when this resolves. */
  install(dir: string): void | Promise<void>;
  log?(message: string): void;
  /** How often a waiting process looks again; default 2 s. */
  pollMs?: number;
  /** How long to wait for another process's install; default 30 min. */
  waitMs?: number;
}

export type CacheInstallResult = "present" | "installed" | "installed by another process";

interface LockOwner {
  pid: number;
  host: string;
  since: number;
}

export function lockDirOf(cacheDir: string): string {
  return `${cacheDir}.lock`;
}

function tryLock(lockDir: string): boolean {
  try {
    mkdirSync(lockDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  const owner: LockOwner = { pid: process.pid, host: hostname(), since: Date.now() };
  writeFileSync(join(lockDir, "owner.json"), JSON.stringify(owner));
  return true;
}

function readOwner(lockDir: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(join(lockDir, "owner.json"), "utf8")) as LockOwner;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A lock left by a process that has ended on this machine, or older than `waitMs` anywhere. */
function isStale(lockDir: string, waitMs: number): boolean {
  const owner = readOwner(lockDir);
  if (!owner) {
    // mkdir and the owner file are two steps: give a fresh lock a moment to get its owner.
    try {
      return Date.now() - statSync(lockDir).mtimeMs > 60_000;
    } catch {
      return false;
    }
  }
  if (owner.host === hostname() && !isAlive(owner.pid)) return true;
  return Date.now() - owner.since > waitMs;
}

/** Moves `dir` out of the way and deletes it (rename first, so it is gone from `dir` at once). */
function discard(dir: string): void {
  const aside = `${dir}.discarded-${process.pid}-${Date.now()}`;
  try {
    renameSync(dir, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  rmSync(aside, { recursive: true, force: true });
}

/** Lets go of the lock if it is still this process's own. */
function unlock(lockDir: string): void {
  const owner = readOwner(lockDir);
  if (owner?.pid === process.pid && owner.host === hostname()) discard(lockDir);
}

/** Folders beside the cache left by installs whose process was killed before it could clean up. */
function removeLeftovers(cacheDir: string): void {
  const prefix = `${basename(cacheDir)}.`;
  const parent = dirname(cacheDir);
  for (const name of readdirSync(parent)) {
    const match = /^(?:installing|discarded)-(\d+)/.exec(
      name.startsWith(prefix) ? name.slice(prefix.length) : "",
    );
    if (match && !isAlive(Number(match[1]))) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Makes sure `cacheDir` holds a complete install, installing it at most once across processes. */
export async function installOnce(options: CacheInstall): Promise<CacheInstallResult> {
  const { cacheDir, isReady, install, log = () => {}, pollMs = 2_000, waitMs = 30 * 60_000 } = options;
  const lockDir = lockDirOf(cacheDir);
  mkdirSync(dirname(cacheDir), { recursive: true });
  const deadline = Date.now() + waitMs;
  let waited = false;
  while (!tryLock(lockDir)) {
    if (isReady(cacheDir)) return waited ? "installed by another process" : "present";
    if (isStale(lockDir, waitMs)) {
      log(`Taking over ${lockDir}: the install that held it has ended.`);
      discard(lockDir);
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `another install has held ${lockDir} for over ${Math.round(waitMs / 60_000)} min; delete that folder if no install is running`,
      );
    }
    if (!waited) {
      const owner = readOwner(lockDir);
      log(
        `Waiting for the install already running${owner ? ` (process ${owner.pid} on ${owner.host})` : ""}…`,
      );
      waited = true;
    }
    await sleep(pollMs);
  }

  const work = `${cacheDir}.installing-${process.pid}`;
  try {
    if (isReady(cacheDir)) return waited ? "installed by another process" : "present";
    removeLeftovers(cacheDir);
    mkdirSync(work, { recursive: true });
    await install(work);
    if (!isReady(work)) throw new Error(`the install in ${work} finished incomplete`);
    // A cache folder that is there but not ready was left by an install that wrote in place.
    if (existsSync(cacheDir) && !isReady(cacheDir)) discard(cacheDir);
    try {
      renameSync(work, cacheDir);
    } catch (error) {
      // Only if another process put a complete cache there (a lock it took over wrongly): keep that.
      if (!isReady(cacheDir)) throw error;
    }
    return "installed";
  } finally {
    rmSync(work, { recursive: true, force: true });
    unlock(lockDir);
  }
}

/** Runs a command to its end in `cwd`, echoing it; answers its stdout, throws on a non-zero exit. */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  console.log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (result.error) throw result.error;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed with exit code ${result.status}`);
  return result.stdout;
}

export interface NpmInstall {
  /** The package.json written first (its name, and any overrides). */
  packageJson: Record<string, unknown>;
  /** What `npm install` installs, as name@version. */
  packages: string[];
  /**
   * The one native module rebuilt after the install, against the headers of the Node installed beside
   * it (its binary and folder, in `dir`); left out for a tool without one.
   */
  native?: { module: string; nodeBinary: string; nodeDir: string };
}

/**
 * The start every install shares: package.json, `npm install` with install scripts skipped (some
 * download from hosts that are not reachable), then only the native module, if any, rebuilt from source
 * against the headers of the Node installed beside it, the Node that then runs the tool.
 */
export function npmInstallInto(dir: string, spec: NpmInstall): void {
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(spec.packageJson, null, 2)}\n`);
  const env = { ...process.env };
  delete env.npm_config_nodedir;
  delete env.NPM_CONFIG_NODEDIR;
  run(
    "npm",
    ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", ...spec.packages],
    dir,
    env,
  );
  if (!spec.native) return;
  run("npm", ["rebuild", spec.native.module, "--loglevel=error"], dir, {
    ...env,
    PATH: `${dirname(spec.native.nodeBinary)}${delimiter}${process.env.PATH ?? ""}`,
    npm_config_nodedir: spec.native.nodeDir,
  });
}
