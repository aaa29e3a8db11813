import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { contentTypeFor } from "./content-types.ts";

/** Where `pnpm --filter @socialpub/dashboard build` writes the page. */
export const DEFAULT_DIST_DIR = fileURLToPath(new URL("../dist", import.meta.url));

export interface Asset {
  readonly body: Uint8Array;
  readonly contentType: string;
  /** A strong validator: the hash of the bytes. */
  readonly etag: string;
  /** Files under assets/ carry a content hash in their name, so they never change. */
  readonly immutable: boolean;
}

/** The built page, by URL path ("/", "/assets/index-abc123.js", …). */
export type AssetTable = ReadonlyMap<string, Asset>;

function etagOf(body: Uint8Array): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

export function makeAsset(body: Uint8Array, contentType: string, immutable: boolean): Asset {
  return { body, contentType, etag: etagOf(body), immutable };
}

/**
 * Reads every built file into memory (the page is a few files and tens of KiB), so serving never
 * touches the disk and a rebuild while the server runs cannot serve half-written files.
 * Returns null when the page has not been built.
 */
export function readAssets(dir: string, transformIndex: (html: string) => string): AssetTable | null {
  const indexPath = join(dir, "index.html");
  if (!existsSync(indexPath)) return null;
  const table = new Map<string, Asset>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    // Dot files are the build's own bookkeeping (dist/.source-hash), not part of the page.
    if (!entry.isFile() || entry.name.startsWith(".")) continue;
    const file = join(entry.parentPath, entry.name);
    const urlPath = `/${relative(dir, file).split(sep).join("/")}`;
    if (urlPath === "/index.html") continue;
    table.set(urlPath, makeAsset(readFileSync(file), contentTypeFor(file), urlPath.startsWith("/assets/")));
  }
  const html = transformIndex(readFileSync(indexPath, "utf8"));
  table.set("/", makeAsset(new TextEncoder().encode(html), contentTypeFor(indexPath), false));
  return table;
}
