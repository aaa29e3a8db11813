import { newId } from "@socialpub/core";
import { type Asset, type AssetTable, DEFAULT_DIST_DIR, makeAsset, readAssets } from "./assets.ts";
import { withNetworkRules } from "./network-rules.ts";

/**
 * The page loads only its own files and talks only to its own origin. No inline script or style, no
 * plugins, no framing (the page holds an API key, so clickjacking matters).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@=+/-]{1,128}$/;

export interface DashboardOptions {
  /** The built page; default: this package's dist/. */
  dir?: string;
}

export interface Dashboard {
  /** False when the page has not been built: `/` then explains how to build it. */
  readonly built: boolean;
  /**
   * Answers the page's own paths (`/`, `/assets/…`, files beside index.html) and returns null for
   * every other request, which belongs to the service.
   */
  handle(request: Request): Response | null;
}

const NOT_BUILT_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>socialpub dashboard not built</title></head>
<body><main><h1>The dashboard has not been built</h1>
<p>Run <code>pnpm --filter @socialpub/dashboard build</code> in the repository, then restart the server.
The API is unaffected: it answers under <code>/api/v1</code>.</p></main></body></html>
`;

function headersFor(request: Request, asset: Asset): Headers {
  const inbound = request.headers.get("x-request-id");
  return new Headers({
    ...SECURITY_HEADERS,
    "content-type": asset.contentType,
    "cache-control": asset.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    etag: asset.etag,
    "x-request-id": inbound && SANE_REQUEST_ID.test(inbound) ? inbound : newId("req"),
  });
}

/** True when an If-None-Match header names this validator (or is `*`). */
function notModified(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (header === null) return false;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}

function serve(request: Request, asset: Asset, status = 200): Response {
  const headers = headersFor(request, asset);
  if (request.method !== "GET" && request.method !== "HEAD") {
    // Worded and shaped as the service's own 405.
    const { pathname } = new URL(request.url);
    const message = `Method ${request.method} is not allowed on ${pathname}; allowed: GET, HEAD.`;
    headers.set("allow", "GET, HEAD");
    headers.set("content-type", "application/json; charset=utf-8");
    headers.set("cache-control", "no-store");
    headers.delete("etag");
    return new Response(JSON.stringify({ error: message }), { status: 405, headers });
  }
  if (status === 200 && notModified(request, asset.etag)) return new Response(null, { status: 304, headers });
  headers.set("content-length", String(asset.body.byteLength));
  return new Response(request.method === "HEAD" ? null : (asset.body as Uint8Array<ArrayBuffer>), {
    status,
    headers,
  });
}

/** Loads the built page once; call at startup, not per request. */
export function createDashboard(options: DashboardOptions = {}): Dashboard {
  const table: AssetTable | null = readAssets(options.dir ?? DEFAULT_DIST_DIR, withNetworkRules);
  const notBuilt = makeAsset(new TextEncoder().encode(NOT_BUILT_HTML), "text/html; charset=utf-8", false);
  return {
    built: table !== null,
    handle(request) {
      const { pathname } = new URL(request.url);
      if (pathname.startsWith("/api/") || pathname === "/healthz") return null;
      if (table === null) return pathname === "/" ? serve(request, notBuilt, 503) : null;
      const asset = table.get(pathname === "/index.html" ? "/" : pathname);
      return asset === undefined ? null : serve(request, asset);
    },
  };
}
