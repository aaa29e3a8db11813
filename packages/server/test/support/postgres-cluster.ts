import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import postgres from "postgres";
import { findPostgresBin, POSTGRES_HINT } from "../../../../scripts/postgres-bin.ts";

export { findPostgresBin };

/*
 * A throwaway PostgreSQL cluster for tests and benchmarks: initdb in a temporary folder, the server on
 * 127.0.0.1 and a free port, trust authentication, durability traded for speed (fsync off: the cluster
 * dies with the run). Needs PostgreSQL's server binaries: the machine's own, or the npm registry's build
 * that the tests' preparation caches (scripts/postgres-bin.ts). PostgreSQL refuses to run as root, so as
 * root the cluster runs as the `postgres` user, or `nobody` on a machine without one.
 */

export interface ThrowawayCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres — the maintenance database. */
  readonly adminUrl: string;
  readonly port: number;
  /** A new empty database; answers its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /** Stops the server (fast shutdown: connections are cut) and starts it again on the same port. */
  restart(options?: { downMs?: number }): Promise<void>;
  /**
   * Stops the server as `pg_ctl stop -m fast` does (every session ended, a clean checkpoint) or as
   * `-m immediate` does (every process gone at once; the next start replays the WAL, as after a crash).
   */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const isRoot = process.getuid?.() === 0;

/**
 * Who PostgreSQL runs as: ourselves, or when we are root (it refuses root) the postgres user that a
 * distribution's package makes, else `nobody`, which every Linux machine has.
 */
function postgresUser(): { uid: number; gid: number } | Record<string, never> {
  if (!isRoot) return {};
  for (const name of ["postgres", "nobody"]) {
    const id = (flag: string) =>
      Number(
        execFileSync("id", [flag, name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim(),
      );
    try {
      return { uid: id("-u"), gid: id("-g") };
    } catch {
      // no such user: the next
    }
  }
  throw new Error(
    "PostgreSQL refuses to run as root, and this machine has neither a postgres nor a nobody user",
  );
}

/**
 * The binaries' folder as `user` can run them. As root, the npm registry's build sits in root's cache
 * (~/.cache/socialpub, under a home other users cannot enter): the installation (bin, lib and share
 * side by side) is then linked into the cluster's folder, or copied where links cannot go.
 */
function runnableBin(bin: string, dir: string, user: { uid?: number; gid?: number }): string {
  if (!isRoot) return bin;
  const runs = spawnSync(join(bin, "postgres"), ["--version"], { ...user, stdio: "ignore" }).status === 0;
  if (runs) return bin;
  const installation = dirname(bin);
  const staged = join(dir, "postgresql");
  for (const part of ["bin", "lib", "share"]) linkTree(join(installation, part), join(staged, part));
  return join(staged, "bin");
}

function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const target = join(to, name);
    const stat = lstatSync(source);
    if (stat.isDirectory()) linkTree(source, target);
    else if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
      chmodSync(target, stat.mode);
    }
  }
}

export interface ClusterOptions {
  /**
   * Keep commits as durable as a real server keeps them across a stop of PostgreSQL alone
   * (synchronous_commit on): needed where a test stops the server with `immediate` and then counts
   * what it acknowledged. fsync stays off either way: the machine itself does not go down.
   */
  durableCommits?: boolean;
  /** The server binaries' folder; findPostgresBin()'s answer by default. */
  bin?: string;
}

export async function startThrowawayCluster(options: ClusterOptions = {}): Promise<ThrowawayCluster> {
  const found = options.bin ?? findPostgresBin();
  if (!found) throw new Error(`PostgreSQL's server binaries were not found: ${POSTGRES_HINT}`);
  const dir = mkdtempSync(join(tmpdir(), "socialpub-pg-"));
  const data = join(dir, "data");
  const user = postgresUser();
  if (isRoot) {
    chmodSync(dir, 0o777);
    execFileSync("chown", [`${user.uid}:${user.gid}`, dir]);
  }
  const bin = runnableBin(found, dir, user);
  execFileSync(
    join(bin, "initdb"),
    ["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync", "--no-instructions"],
    { ...user, cwd: dir, stdio: ["ignore", "ignore", "pipe"] },
  );
  const port = await freePort();
  let child: ChildProcess | null = null;

  const start = async (): Promise<void> => {
    const args = [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      `synchronous_commit=${options.durableCommits ? "on" : "off"}`,
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=300",
      "-c",
      "shared_buffers=64MB",
    ];
    const started = spawn(join(bin, "postgres"), args, {
      ...user,
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    started.stderr?.on("data", (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    child = started;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`PostgreSQL exited at start:\n${log}`);
      const sql = postgres(adminUrl, { max: 1, connect_timeout: 2, onnotice: () => {} });
      try {
        await sql`SELECT 1`;
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`PostgreSQL did not start within 60 s:\n${log}`, { cause: error });
      } finally {
        await sql.end({ timeout: 1 });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  /** SIGINT: a fast shutdown, which ends every session; SIGQUIT: immediate, for the end of a run. */
  const stop = async (signal: "SIGINT" | "SIGQUIT" = "SIGINT"): Promise<void> => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill(signal);
    await exited;
  };

  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await start();
  let databases = 0;
  const admin = postgres(adminUrl, { max: 2, onnotice: () => {} });

  return {
    adminUrl,
    port,
    async createDatabase(prefix = "test") {
      databases++;
      const name = `${prefix.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}_${process.pid}_${databases}_${Math.random().toString(36).slice(2, 8)}`;
      await admin.unsafe(`CREATE DATABASE ${name}`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async restart(options = {}) {
      await stop();
      if (options.downMs) await new Promise((resolve) => setTimeout(resolve, options.downMs));
      await start();
    },
    stop: (mode = "fast") => stop(mode === "fast" ? "SIGINT" : "SIGQUIT"),
    start,
    async destroy() {
      await admin.end({ timeout: 1 });
      await stop("SIGQUIT");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
