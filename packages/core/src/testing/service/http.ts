import { describe, expect, it } from "vitest";
import { MAX_CAPTION_LENGTH } from "../../contract/requests.ts";
import { BASE, type Harness, ORIGIN, send } from "./harness.ts";

const MIB = 1024 * 1024;

export function httpTests(h: Harness): void {
  describe("HTTP behaviour", () => {
    it('an unknown path answers 404 {"error":"Not found."}', async () => {
      const user = await h.user();
      for (const path of [
        `${BASE}/nope`,
        `${BASE}/posts/x/y/z`,
        `${ORIGIN}/`,
        `${ORIGIN}/v2/me`,
        `${ORIGIN}/v1/nope`,
      ]) {
        const res = await user.get(path);
        expect(res.status, path).toBe(404);
        expect(res.body).toEqual({ error: "Not found." });
      }
    });

    it("the API answers under /v1 as under /api/v1, the contract's two address forms", async () => {
      const user = await h.user();
      const long = await user.get(`${ORIGIN}/api/v1/me`);
      const short = await user.get(`${ORIGIN}/v1/me`);
      expect(short.status).toBe(200);
      expect(short.body.id).toBe(long.body.id);
      const refused = await user.request("PUT", `${ORIGIN}/v1/posts`);
      expect(refused.status).toBe(405);
      expect(refused.headers.get("allow")).toBe("GET, HEAD, POST");
    });

    it("a known path with the wrong method answers 405 with Allow", async () => {
      const user = await h.user();
      const cases = [
        ["PUT", "/posts", ["GET", "HEAD", "POST"]],
        ["PUT", "/posts/post_01J00000000000000000000000", ["DELETE", "GET", "HEAD", "PATCH"]],
        ["POST", "/me", ["GET", "HEAD"]],
        ["DELETE", "/accounts", ["GET", "HEAD"]],
      ] as const;
      for (const [method, path, allowed] of cases) {
        const res = await user.request(method, path);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(
          res.headers
            .get("allow")
            ?.split(",")
            .map((m) => m.trim())
            .sort(),
        ).toEqual(allowed);
        expect(typeof res.body.error).toBe("string");
        expect(Object.keys(res.body)).toEqual(["error"]);
      }
    });

    it("a body over 1 MiB answers 413", async () => {
      const user = await h.user();
      const caption = "a".repeat(MIB);
      const res = await user.post("/posts", { caption, platforms: ["x"] });
      expect(res.status).toBe(413);
      expect(Object.keys(res.body)).toEqual(["error"]);
      expect((await user.get("/posts")).body.data).toEqual([]);
    });

    it("a body of just under 1 MiB is read", async () => {
      const user = await h.user();
      // The longest caption the API takes, and a field the service ignores filling the rest of the MiB.
      const caption = "a".repeat(MAX_CAPTION_LENGTH);
      const envelope = JSON.stringify({ caption, platforms: ["x"], padding: "" }).length;
      const padding = "z".repeat(MIB - envelope);
      const res = await user.post("/posts", { caption, platforms: ["x"], padding });
      expect(res.status).toBe(201);
      expect(res.body.caption).toHaveLength(caption.length);
    });

    it("a body that is not JSON-typed answers 415", async () => {
      const user = await h.user();
      for (const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
      ]) {
        const res = await user.request("POST", "/posts", {
          rawBody: JSON.stringify({ caption: "Hi", platforms: ["x"] }),
          headers: { "content-type": type },
        });
        expect(res.status, type).toBe(415);
        expect(res.body.error).toMatch(/^Content-Type must be application\/json/);
      }
    });

    it("a compressed body (Content-Encoding other than identity) answers 415, and creates nothing", async () => {
      const user = await h.user();
      const json = JSON.stringify({ caption: "Hi", platforms: ["x"] });
      const gzipped = new Uint8Array(
        await new Response(
          new Blob([json]).stream().pipeThrough(new CompressionStream("gzip")),
        ).arrayBuffer(),
      );
      for (const encoding of ["gzip", "br", "GZIP", "identity, gzip"]) {
        const res = await user.request("POST", "/posts", {
          rawBody: gzipped,
          headers: { "content-type": "application/json", "content-encoding": encoding },
        });
        expect(res.status, encoding).toBe(415);
        expect(res.body.error).toMatch(/^Content-Encoding \w+ is not supported; send the body uncompressed/);
        expect(res.headers.get("accept-encoding")).toBe("identity");
      }
      expect((await user.get("/posts")).body.data).toEqual([]);
      const plain = await user.request("POST", "/posts", {
        rawBody: json,
        headers: { "content-type": "application/json", "content-encoding": "identity" },
      });
      expect(plain.status).toBe(201);
    });

    it("application/json with a charset is accepted", async () => {
      const user = await h.user();
      const res = await user.request("POST", "/posts", {
        rawBody: JSON.stringify({ caption: "Hi", platforms: ["x"] }),
        headers: { "content-type": "application/json; charset=utf-8" },
      });
      expect(res.status).toBe(201);
    });

    it("malformed JSON answers 400 saying the body is not valid JSON", async () => {
      const user = await h.user();
      for (const raw of ["{", "{'caption': 'hi'}", "caption=hi", "[1,"]) {
        const res = await user.request("POST", "/posts", {
          rawBody: raw,
          headers: { "content-type": "application/json" },
        });
        expect(res.status, raw).toBe(400);
        expect(res.body.error).toMatch(/^Request body is not valid JSON/);
      }
    });

    it("JSON that is not an object, or no body at all, answers 400", async () => {
      const user = await h.user();
      for (const raw of ["[]", '"post"', "42", "null"]) {
        const res = await user.request("POST", "/posts", {
          rawBody: raw,
          headers: { "content-type": "application/json" },
        });
        expect(res.status, raw).toBe(400);
        expect(res.body).toEqual({ error: "Request body must be a JSON object." });
      }
      const empty = await user.request("POST", "/posts", { headers: { "content-type": "application/json" } });
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({ error: "Request body is empty; send a JSON object." });
    });

    it("every response carries X-Request-Id: generated when none is sent", async () => {
      const user = await h.user();
      const responses = [
        await user.get("/me"),
        await user.get("/me", { anonymous: true }),
        await user.get("/nope"),
        await user.request("PUT", "/me"),
        await user.post("/posts", { caption: "Hi", platforms: ["x"] }),
        await user.post("/posts", { platforms: [] }),
      ];
      const seen = new Set<string>();
      for (const res of responses) {
        const id = res.headers.get("x-request-id");
        expect(id).toMatch(/^req_[0-9A-Z]{26}$/);
        seen.add(id!);
      }
      expect(seen.size).toBe(responses.length);
    });

    it("a sane inbound X-Request-Id is echoed; anything else is replaced", async () => {
      const user = await h.user();
      const echoed = await user.get("/me", { headers: { "x-request-id": "trace-123.abc_XYZ" } });
      expect(echoed.headers.get("x-request-id")).toBe("trace-123.abc_XYZ");
      for (const bad of ["x".repeat(200), "has space", "<script>"]) {
        const res = await user.get("/me", { headers: { "x-request-id": bad } });
        expect(res.headers.get("x-request-id")).toMatch(/^req_/);
      }
    });

    it("error bodies are exactly one field, error", async () => {
      const user = await h.user();
      for (const res of [
        await user.get("/me", { anonymous: true }),
        await user.get("/posts/nope"),
        await user.post("/posts", { platforms: [] }),
        await user.get("/nope"),
      ]) {
        expect(Object.keys(res.body)).toEqual(["error"]);
        expect(typeof res.body.error).toBe("string");
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      }
    });

    it("GET /healthz answers 200 without a key", async () => {
      const res = await send(h.target, new Request(`${ORIGIN}/healthz`));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: "ok" });
    });

    it("GET /api/v1/openapi.json answers the OpenAPI 3.1 document without a key", async () => {
      const res = await send(h.target, new Request(`${BASE}/openapi.json`));
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe("3.1.0");
      expect(Object.keys(res.body.paths)).toEqual(
        expect.arrayContaining(["/me", "/posts", "/posts/{id}", "/accounts", "/analytics"]),
      );
    });
  });
}
