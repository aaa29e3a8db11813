import { type ProvisionedUser, provisionUser } from "@socialpub/core";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/logging.ts";
import { type RunningServer, type StartServerOptions, startServer } from "../src/server.ts";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/sqlite-store.ts";

const running: { server: RunningServer; store: SqliteStore }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.store.close();
  }
});

async function start(options: Partial<StartServerOptions> = {}) {
  const store = openSqliteStore(":memory:");
  const dev: ProvisionedUser = await provisionUser(store, { plan: "studio", accounts: ["x", "bluesky"] });
  const logger = createLogger({ level: "silent" });
  const server = await startServer({ host: "127.0.0.1", port: 0, store, logger, ...options });
  running.push({ server, store });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${dev.apiKey}`, ...(init.headers as Record<string, string>) },
    });
  return { server, call };
}

async function upload(
  call: (path: string, init?: RequestInit) => Promise<Response>,
  path: string,
  headers = {},
) {
  const res = await call(path, {
    method: "POST",
    headers: { "content-type": "image/png", ...headers },
    body: SAMPLE_PNG,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; url: string };
}

describe("the API under /v1 as under /api/v1", () => {
  it("answers the same requests, with the same answers and refusals", async () => {
    const { call } = await start();
    const short = await call("/v1/me");
    expect(short.status).toBe(200);
    const long = await call("/api/v1/me");
    const { usage: shortUsage, ...shortMe } = await short.json();
    const { usage: longUsage, ...longMe } = await long.json();
    expect(shortMe).toEqual(longMe);
    // One count of calls, whichever address they are made by.
    expect(longUsage.api_calls_this_month).toBe(shortUsage.api_calls_this_month + 1);

    const created = await call("/v1/posts", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ caption: "By the short address", platforms: ["x"] }),
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    expect((await call(`/api/v1/posts/${id}`)).status).toBe(200);
    expect((await call(`/v1/posts/${id}`)).status).toBe(200);

    const wrongMethod = await call("/v1/me", { method: "PUT" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, HEAD");
    expect((await wrongMethod.json()).error).toBe("Method PUT is not allowed on /v1/me; allowed: GET, HEAD.");
    const noKey = await fetch(`${(await start()).server.url}/v1/me`);
    expect(noKey.status).toBe(401);
    // /healthz stays at the root only.
    expect((await call("/v1/healthz")).status).toBe(404);
  });

  it("links the next page by the prefix the request used", async () => {
    const { call } = await start();
    for (const caption of ["one", "two"]) {
      const res = await call("/api/v1/posts", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ caption, platforms: ["x"] }),
      });
      expect(res.status).toBe(201);
    }
    const short = await call("/v1/posts?limit=1");
    expect(short.headers.get("link")).toMatch(/^<\/v1\/posts\?limit=1&cursor=[^>]+>; rel="next"$/);
    const next = short.headers.get("link")!.slice(1, short.headers.get("link")!.indexOf(">"));
    const second = await call(next);
    expect(second.status).toBe(200);
    expect((await second.json()).data).toHaveLength(1);
    const long = await call("/api/v1/posts?limit=1");
    expect(long.headers.get("link")).toMatch(/^<\/api\/v1\/posts\?limit=1&cursor=[^>]+>; rel="next"$/);
  });

  it("gives uploaded media a URL in the form it was uploaded by, which serves the bytes", async () => {
    const { server, call } = await start();
    const short = await upload(call, "/v1/media");
    expect(short.url.startsWith(`${server.url}/v1/media/${short.id}/content/`)).toBe(true);
    const long = await upload(call, "/api/v1/media");
    expect(long.url.startsWith(`${server.url}/api/v1/media/${long.id}/content/`)).toBe(true);
    for (const media of [short, long]) {
      const bytes = await fetch(media.url);
      expect(bytes.status).toBe(200);
      expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(SAMPLE_PNG);
    }
  });

  it("serves the OpenAPI document with the server the request used", async () => {
    const { server } = await start();
    const short = await (await fetch(`${server.url}/v1/openapi.json`)).json();
    const long = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    expect(short.servers).toEqual([{ url: "/v1" }]);
    expect(long.servers).toEqual([{ url: "/api/v1" }]);
    expect(short.paths).toEqual(long.paths);
  });
});

describe("behind a reverse proxy", () => {
  const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "social.example.com" };

  it("with trustProxy, builds media URLs from X-Forwarded-Proto and X-Forwarded-Host", async () => {
    const { call } = await start({ trustProxy: true });
    const media = await upload(call, "/v1/media", forwarded);
    expect(media.url.startsWith(`https://social.example.com/v1/media/${media.id}/content/`)).toBe(true);
  });

  it("with trustProxy, reads Forwarded when the X-Forwarded headers are absent", async () => {
    const { call } = await start({ trustProxy: true });
    const media = await upload(call, "/api/v1/media", {
      forwarded: 'for=192.0.2.60;proto=https;host="social.example.com:8443", for=198.51.100.17',
    });
    expect(media.url.startsWith(`https://social.example.com:8443/api/v1/media/${media.id}/`)).toBe(true);
  });

  it("with trustProxy, ignores a forwarded value that is not a scheme or a host", async () => {
    const { server, call } = await start({ trustProxy: true });
    const media = await upload(call, "/api/v1/media", {
      "x-forwarded-proto": "javascript",
      "x-forwarded-host": "evil.example/path?",
    });
    expect(media.url.startsWith(`${server.url}/api/v1/media/`)).toBe(true);
  });

  it("without trustProxy (the default), ignores forwarded headers: a client cannot choose the host", async () => {
    const { server, call } = await start();
    const media = await upload(call, "/api/v1/media", {
      ...forwarded,
      forwarded: "proto=https;host=evil.example",
    });
    expect(media.url.startsWith(`${server.url}/api/v1/media/`)).toBe(true);
  });
});
