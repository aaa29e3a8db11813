import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A stand-in for GitHub's Actions cache service (v2), which cannot run outside GitHub: the three Twirp
 * calls @actions/cache makes (CreateCacheEntry, FinalizeCacheEntryUpload, GetCacheEntryDownloadURL,
 * JSON over POST) and the signed upload URL its Azure Blob client PUTs the archive to. It keeps what a
 * real cache keeps that matters here: entries that cannot be replaced, found by exact key or by the
 * newest whose key starts with a restore key, for the same version (paths and compression).
 */

const SERVICE = "/twirp/github.actions.results.api.v1.CacheService/";

interface Entry {
  key: string;
  version: string;
  committed: boolean;
  bytes: number;
  created: number;
}

export interface FakeActionsCache {
  url: string;
  /** The environment a runner sets for the cache (the step's env). */
  env: Record<string, string>;
  /** Committed entries' keys, oldest first. */
  keys(): string[];
  close(): Promise<void>;
}

export async function startFakeActionsCache(): Promise<FakeActionsCache> {
  const entries = new Map<string, Entry>();
  let sequence = 0;
  let url = "";

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await read(req);
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (req.method === "PUT" && path.startsWith("/devstoreaccount1/caches/")) {
      const id = decodeURIComponent(path.split("/").pop()!);
      const entry = [...entries.values()].find((e) => String(e.created) === id);
      if (!entry) return send(res, 404, {});
      entry.bytes += body.length;
      res.writeHead(201, {
        etag: `"0x${id}"`,
        "last-modified": new Date().toUTCString(),
        "x-ms-request-id": `req-${id}`,
        "x-ms-version": "2025-01-05",
        "content-md5": "",
      });
      return res.end();
    }
    if (req.method !== "POST" || !path.startsWith(SERVICE)) return send(res, 404, { msg: "not found" });
    if (!/^Bearer .+/.test(req.headers.authorization ?? ""))
      return send(res, 401, { code: "unauthenticated" });
    const request = JSON.parse(body.toString("utf8") || "{}") as Record<string, string | string[]>;
    const method = path.slice(SERVICE.length);
    const key = String(request.key ?? "");
    const version = String(request.version ?? "");
    if (method === "CreateCacheEntry") {
      if (entries.has(key)) return send(res, 200, { ok: false, message: `cache entry ${key} exists` });
      const created = ++sequence;
      entries.set(key, { key, version, committed: false, bytes: 0, created });
      return send(res, 200, {
        ok: true,
        signed_upload_url: `${url}/devstoreaccount1/caches/${created}?sig=fake`,
      });
    }
    if (method === "FinalizeCacheEntryUpload") {
      const entry = entries.get(key);
      if (!entry || entry.committed) return send(res, 200, { ok: false, message: "nothing to finalize" });
      entry.committed = true;
      return send(res, 200, { ok: true, entry_id: String(entry.created) });
    }
    if (method === "GetCacheEntryDownloadURL") {
      const committed = [...entries.values()].filter((e) => e.committed && e.version === version);
      const restoreKeys = (request.restore_keys ?? request.restoreKeys ?? []) as string[];
      const exact = committed.find((e) => e.key === key);
      const newest = (prefix: string) =>
        committed.filter((e) => e.key.startsWith(prefix)).sort((a, b) => b.created - a.created)[0];
      const found = exact ?? restoreKeys.map(newest).find((e) => e !== undefined);
      if (!found) return send(res, 200, { ok: false });
      return send(res, 200, {
        ok: true,
        signed_download_url: `${url}/devstoreaccount1/caches/${found.created}?sig=fake`,
        matched_key: found.key,
      });
    }
    return send(res, 404, { code: "bad_route" });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => send(res, 500, { msg: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: {
      ACTIONS_CACHE_SERVICE_V2: "true",
      ACTIONS_RESULTS_URL: `${url}/`,
      ACTIONS_RUNTIME_TOKEN: "runtime-token-for-tests",
    },
    keys: () =>
      [...entries.values()]
        .filter((e) => e.committed)
        .sort((a, b) => a.created - b.created)
        .map((e) => e.key),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function read(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
