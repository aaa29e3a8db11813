import { describe, expect, it } from "vitest";
import { SAMPLE_PNG as PNG, SAMPLE_JPEG, SAMPLE_MP4 } from "../media-samples.ts";
import { type Harness, keysOf, ORIGIN, send } from "./harness.ts";

export function mediaTests(h: Harness): void {
  describe("POST /media", () => {
    it("an upload of image bytes answers 201 {id, url, type, size, status: ready}; the bytes are served back at url without a key", async () => {
      const user = await h.user();
      const res = await user.request("POST", "/media", {
        rawBody: PNG,
        headers: { "content-type": "image/png" },
      });
      expect(res.status).toBe(201);
      expect(keysOf(res.body)).toEqual(["id", "size", "status", "type", "url"]);
      expect(res.body).toMatchObject({ type: "image/png", size: PNG.length, status: "ready" });
      expect(res.body.id).toMatch(/^med_[0-9A-Z]{26}$/);
      const path = new URL(res.body.url).pathname;
      expect(path).toMatch(new RegExp(`^/api/v1/media/${res.body.id}/content/[A-Za-z0-9_-]{32}$`));
      const content = await h.target.fetch(new Request(`${ORIGIN}${path}`));
      expect(content.status).toBe(200);
      expect(content.headers.get("content-type")).toBe("image/png");
      expect(new Uint8Array(await content.arrayBuffer())).toEqual(PNG);
    });

    it("without a key the bytes are reachable only at the url's unguessable token; by med_ id only with the owner's key", async () => {
      const alice = await h.user();
      const bob = await h.user();
      const upload = () =>
        alice.request("POST", "/media", { rawBody: PNG, headers: { "content-type": "image/png" } });
      const first = (await upload()).body;
      const second = (await upload()).body;
      const tokenOf = (url: string) => new URL(url).pathname.split("/").at(-1)!;
      // Two uploads in the same moment share nothing guessable: 32 base64url characters of randomness each.
      expect(tokenOf(first.url)).not.toBe(tokenOf(second.url));
      const anonymous = (path: string) => send(h.target, new Request(`${ORIGIN}/api/v1${path}`));
      // The id alone, or with another upload's token, or a token altered by one character: 404 or 401.
      expect((await anonymous(`/media/${first.id}/content`)).status).toBe(401);
      expect((await anonymous(`/media/${first.id}/content/${tokenOf(second.url)}`)).status).toBe(404);
      const altered = tokenOf(first.url).replace(/^./, (c) => (c === "A" ? "B" : "A"));
      expect((await anonymous(`/media/${first.id}/content/${altered}`)).body).toEqual({
        error: "Not found.",
      });
      expect((await anonymous(`/media/${first.id}/content/short`)).status).toBe(404);
      // By id with a key: the owner gets the bytes, anyone else a 404.
      const own = await send(
        h.target,
        new Request(`${ORIGIN}/api/v1/media/${first.id}/content`, {
          headers: { authorization: `Bearer ${alice.apiKey}` },
        }),
      );
      expect(own.status).toBe(200);
      const other = await send(
        h.target,
        new Request(`${ORIGIN}/api/v1/media/${first.id}/content`, {
          headers: { authorization: `Bearer ${bob.apiKey}` },
        }),
      );
      expect(other.status).toBe(404);
      expect(other.body).toEqual({ error: "Not found." });
    });

    it("writes media.processed {media_id, url, type, size}", async () => {
      const user = await h.user();
      const media = (
        await user.request("POST", "/media", { rawBody: PNG, headers: { "content-type": "image/png" } })
      ).body;
      const events = await h.store.listEvents(user.id);
      expect(events.map((e) => [e.type, e.data])).toEqual([
        ["media.processed", { media_id: media.id, url: media.url, type: "image/png", size: PNG.length }],
      ]);
    });

    it("JSON {url} registers media already online; its type comes from the extension or from type", async () => {
      const user = await h.user();
      const jpg = await user.post("/media", { url: "https://cdn.example.com/photos/cat.JPG" });
      expect(jpg.status).toBe(201);
      expect(jpg.body).toMatchObject({
        url: "https://cdn.example.com/photos/cat.JPG",
        type: "image/jpeg",
        size: 0,
        status: "ready",
      });
      const typed = await user.post("/media", { url: "https://cdn.example.com/v?id=42", type: "video/mp4" });
      expect(typed.body.type).toBe("video/mp4");
      const unknown = await user.post("/media", { url: "https://cdn.example.com/v?id=42" });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatch(/cannot be told from its URL; add type/);
      expect(
        (await user.post("/media", { url: "https://cdn.example.com/a.png", type: "text/html" })).status,
      ).toBe(400);
      expect((await user.post("/media", { url: "file:///etc/passwd" })).status).toBe(400);
    });

    it("a med_ id works as media in POST /posts, for media-required networks too", async () => {
      const user = await h.user({ accounts: ["instagram", "x"] });
      const media = (
        await user.request("POST", "/media", { rawBody: PNG, headers: { "content-type": "image/png" } })
      ).body;
      const post = await user.createPost({ caption: "Look", platforms: ["instagram", "x"], media: media.id });
      expect(post).toMatchObject({ has_media: true, status: "published" });
    });

    it("another user's med_ id is not found", async () => {
      const alice = await h.user();
      const bob = await h.user();
      const media = (await alice.post("/media", { url: "https://cdn.example.com/a.png" })).body;
      const res = await bob.post("/posts", { caption: "Mine?", platforms: ["x"], media: media.id });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(
        `media ${media.id} was not found; upload it with POST /media first, or give a URL.`,
      );
    });

    it("an empty upload answers 400; another Content-Type 415; an unknown content id 404", async () => {
      const user = await h.user();
      const empty = await user.request("POST", "/media", {
        rawBody: new Uint8Array(0),
        headers: { "content-type": "image/png" },
      });
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({ error: "The upload is empty; send the image or video bytes." });
      const text = await user.request("POST", "/media", {
        rawBody: "hello",
        headers: { "content-type": "text/plain" },
      });
      expect(text.status).toBe(415);
      expect(text.body.error).toBe(
        "Content-Type must be application/json, or an image/… or video/… type for an upload, not text/plain.",
      );
      const missing = await send(
        h.target,
        new Request(`${ORIGIN}/api/v1/media/med_01J00000000000000000000000/content/${"A".repeat(32)}`),
      );
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: "Not found." });
    });

    it("an upload's type is told from its bytes: video bytes are kept as video, whatever Content-Type said", async () => {
      const user = await h.user();
      const mp4 = await user.request("POST", "/media", {
        rawBody: SAMPLE_MP4,
        headers: { "content-type": "video/mp4" },
      });
      expect(mp4.status).toBe(201);
      expect(mp4.body.type).toBe("video/mp4");
      const mislabelled = await user.request("POST", "/media", {
        rawBody: SAMPLE_JPEG,
        headers: { "content-type": "image/png" },
      });
      expect(mislabelled.status).toBe(201);
      expect(mislabelled.body.type).toBe("image/jpeg");
      const content = await h.target.fetch(new Request(`${ORIGIN}${new URL(mislabelled.body.url).pathname}`));
      expect(content.headers.get("content-type")).toBe("image/jpeg");
    });

    it("bytes that are not an image or video answer 400, whatever Content-Type claims; nothing is stored", async () => {
      const user = await h.user();
      const cases: [string, Uint8Array<ArrayBuffer>][] = [
        ["image/png", new TextEncoder().encode("<html><script>alert(1)</script></html>")],
        ["image/svg+xml", new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')],
        ["video/mp4", new TextEncoder().encode("%PDF-1.4 not a video")],
        ["image/png", PNG.slice(0, 8)],
      ];
      for (const [type, bytes] of cases) {
        const res = await user.request("POST", "/media", {
          rawBody: bytes,
          headers: { "content-type": type },
        });
        expect(res.status, type).toBe(400);
        expect(res.body.error).toMatch(
          new RegExp(
            `^The upload was sent as ${type.replace("+", "\\+")}, but its bytes are not an image or video`,
          ),
        );
      }
      expect(
        (
          await user.request("POST", "/media", {
            rawBody: new TextEncoder().encode("%PDF-1.4"),
            headers: { "content-type": "image/png" },
          })
        ).body.error,
      ).toContain("(they look like application/pdf)");
      expect(await h.store.listEvents(user.id)).toEqual([]);
    });

    it("an upload over 1 MiB answers 413", async () => {
      const user = await h.user();
      const big = new Uint8Array(1024 * 1024 + 1);
      const res = await user.request("POST", "/media", {
        rawBody: big,
        headers: { "content-type": "image/png" },
      });
      expect(res.status).toBe(413);
    });
  });
}
