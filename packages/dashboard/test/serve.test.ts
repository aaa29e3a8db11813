import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NETWORK_IDS, NETWORK_OPTION_SCHEMAS, NETWORK_RULES } from "@socialpub/core";
import { afterAll, describe, expect, test } from "vitest";
import { CONTENT_SECURITY_POLICY, createDashboard } from "../serve/index.ts";
import { parseNetworkRules } from "../src/lib/network-rules.ts";

const dist = mkdtempSync(join(tmpdir(), "dashboard-dist-"));
mkdirSync(join(dist, "assets"));
writeFileSync(
  join(dist, "index.html"),
  "<!doctype html><html><head><title>t</title></head><body></body></html>",
);
writeFileSync(join(dist, "assets", "index-abc123.js"), "console.log(1)");
writeFileSync(join(dist, "assets", "index-abc123.css"), "body{}");
writeFileSync(join(dist, "favicon.svg"), "<svg/>");
writeFileSync(join(dist, ".source-hash"), "0123abcd\n");
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const dashboard = createDashboard({ dir: dist });
const get = (path: string, init: RequestInit = {}) =>
  dashboard.handle(new Request(`http://localhost${path}`, init));

describe("the server's handler for the built page", () => {
  test("/ is the page, revalidated on every load, with the Content-Security-Policy", async () => {
    const response = get("/")!;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.text()).toContain('<script type="application/json" id="socialpub-networks">');
  });

  test("the page carries the service's network rules, exactly, with each network's options for the composer", async () => {
    const html = await get("/")!.text();
    const json = /<script type="application\/json" id="socialpub-networks">(.*?)<\/script>/.exec(html)![1]!;
    const rules = parseNetworkRules(json);
    expect([...rules.keys()]).toEqual([...NETWORK_IDS]);
    for (const id of NETWORK_IDS) {
      const { options, ...rule } = rules.get(id)!;
      expect(rule).toEqual(NETWORK_RULES[id]);
      expect(options === undefined).toBe(!(id in NETWORK_OPTION_SCHEMAS));
    }
  });

  test("hashed assets are cached for a year with their own content type", () => {
    const js = get("/assets/index-abc123.js")!;
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(get("/assets/index-abc123.css")!.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(get("/favicon.svg")!.headers.get("content-type")).toBe("image/svg+xml");
  });

  test("a matching If-None-Match answers 304 without a body", async () => {
    const etag = get("/")!.headers.get("etag")!;
    const response = get("/", { headers: { "if-none-match": etag } })!;
    expect(response.status).toBe(304);
    expect(await response.text()).toBe("");
  });

  test("HEAD answers the headers only", async () => {
    const response = get("/", { method: "HEAD" })!;
    expect(response.status).toBe(200);
    expect(Number(response.headers.get("content-length"))).toBeGreaterThan(0);
    expect(await response.text()).toBe("");
  });

  test("other methods on the page's paths are 405 with Allow, as JSON", async () => {
    const response = get("/", { method: "POST" })!;
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(await response.json()).toEqual({ error: "Method POST is not allowed on /; allowed: GET, HEAD." });
  });

  test("the API, the health check and unknown paths are left to the service", () => {
    expect(get("/api/v1/me")).toBeNull();
    expect(get("/healthz")).toBeNull();
    expect(get("/assets/missing.js")).toBeNull();
    expect(get("/index.htm")).toBeNull();
    // The build's own bookkeeping beside the page is not part of it.
    expect(get("/.source-hash")).toBeNull();
  });

  test("an unbuilt page says how to build it, and leaves the rest to the service", async () => {
    const unbuilt = createDashboard({ dir: join(dist, "nowhere") });
    expect(unbuilt.built).toBe(false);
    const response = unbuilt.handle(new Request("http://localhost/"))!;
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("pnpm --filter @socialpub/dashboard build");
    expect(unbuilt.handle(new Request("http://localhost/assets/x.js"))).toBeNull();
  });
});
