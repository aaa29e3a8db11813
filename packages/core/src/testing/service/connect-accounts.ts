import { describe, expect, it } from "vitest";
import type { Harness } from "./harness.ts";

export function connectAccountsTests(h: Harness): void {
  describe("POST /accounts/connect, DELETE /accounts/{platform}", () => {
    it("connects a sandbox account at once: 201 with the account, and account.connected", async () => {
      const user = await h.user({ accounts: [] });
      const res = await user.post("/accounts/connect", { platform: "threads", handle: "acme.threads" });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        platform: "threads",
        handle: "acme.threads",
        followers: 0,
        health: "healthy",
      });
      expect((await user.get("/accounts")).body.data).toEqual([res.body]);
      const events = await h.store.listEvents(user.id);
      expect(events.map((e) => [e.type, e.data])).toEqual([
        ["account.connected", { platform: "threads", handle: "acme.threads", health: "healthy" }],
      ]);
      expect((await user.createPost({ caption: "Now possible", platforms: ["threads"] })).status).toBe(
        "published",
      );
    });

    it("without a handle, the account gets one derived from the studio name", async () => {
      const user = await h.user({ accounts: [], studio: "Acme Labs" });
      expect((await user.post("/accounts/connect", { platform: "x" })).body.handle).toBe("acme_labs");
      expect((await user.post("/accounts/connect", { platform: "bluesky" })).body.handle).toBe(
        "acme-labs.bsky.social",
      );
    });

    it("connecting an account already connected reconnects it: 200, health back to healthy", async () => {
      const user = await h.user({
        accounts: [{ platform: "x", handle: "acme", health: "reauth_required", followers: 7 }],
      });
      const res = await user.post("/accounts/connect", { platform: "x" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ platform: "x", handle: "acme", followers: 7, health: "healthy" });
    });

    it("a new account beyond the plan's profiles answers 400", async () => {
      const user = await h.user({ plan: "free", accounts: ["x", "bluesky", "linkedin"] });
      const res = await user.post("/accounts/connect", { platform: "threads" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error:
          "The free plan allows 3 connected profiles and all are in use; disconnect one or upgrade the plan.",
      });
      expect((await user.post("/accounts/connect", { platform: "x" })).status).toBe(200);
    });

    it("an unknown network id answers 400 naming the field", async () => {
      const user = await h.user();
      const res = await user.post("/accounts/connect", { platform: "myspace" });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^platform must be a network id/);
    });

    it("disconnecting answers { deleted: true, id: <platform> }, writes account.disconnected, and the network no longer resolves", async () => {
      const user = await h.user({ accounts: [{ platform: "x", handle: "acme" }, "bluesky"] });
      const res = await user.delete("/accounts/x");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: true, id: "x" });
      const [event] = await h.store.listEvents(user.id);
      expect([event!.type, event!.data]).toEqual([
        "account.disconnected",
        { platform: "x", handle: "acme", health: "healthy" },
      ]);
      expect((await user.get("/accounts")).body.data.map((a: { platform: string }) => a.platform)).toEqual([
        "bluesky",
      ]);
      expect((await user.post("/posts", { caption: "Hi", platforms: ["x"] })).status).toBe(400);
    });

    it("disconnecting a network that is not connected answers 404", async () => {
      const user = await h.user({ accounts: ["x"] });
      for (const platform of ["bluesky", "myspace"]) {
        const res = await user.delete(`/accounts/${platform}`);
        expect(res.status).toBe(404);
        expect(Object.keys(res.body)).toEqual(["error"]);
      }
    });
  });

  describe("PATCH /sandbox/accounts/{platform}", () => {
    it("sets health; turning reauth_required writes account.disconnected, leaving it account.connected", async () => {
      const user = await h.user({ accounts: [{ platform: "x", handle: "acme" }] });
      const res = await user.request("PATCH", "/sandbox/accounts/x", { body: { health: "reauth_required" } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ platform: "x", health: "reauth_required" });
      const failed = await user.createPost({ caption: "Blocked", platforms: ["x"] });
      expect(failed.status).toBe("draft");
      await user.request("PATCH", "/sandbox/accounts/x", { body: { health: "expiring" } });
      const types = (await h.store.listEvents(user.id)).map((e) => e.type);
      expect(types).toEqual(["account.disconnected", "post.failed", "account.connected"]);
      expect((await user.createPost({ caption: "Fine", platforms: ["x"] })).status).toBe("published");
    });

    it("POST /sandbox/accounts/{platform} does what PATCH does: reauth_required fails that network with post.failed, and a post whose every network failed is a draft", async () => {
      const user = await h.user({ accounts: [{ platform: "x", handle: "acme" }, "bluesky"] });
      const res = await user.post("/sandbox/accounts/x", { health: "reauth_required" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ platform: "x", handle: "acme", health: "reauth_required" });
      expect((await user.get("/accounts")).body.data[0]).toMatchObject({ health: "reauth_required" });
      const half = await user.createPost({ caption: "Half", platforms: ["x", "bluesky"] });
      expect(half.status).toBe("published");
      await user.post("/sandbox/accounts/bluesky", { health: "reauth_required" });
      const none = await user.createPost({ caption: "None", platforms: ["x", "bluesky"] });
      expect(none).toMatchObject({ status: "draft", published_at: null });
      const events = (await h.store.listEvents(user.id)).map((e) => [e.type, e.data]);
      expect(events).toEqual([
        ["account.disconnected", { platform: "x", handle: "acme", health: "reauth_required" }],
        ["post.failed", expect.objectContaining({ post_id: half.id, platform: "x", status: "failed" })],
        ["post.published", expect.objectContaining({ post_id: half.id, platform: "bluesky" })],
        ["account.disconnected", expect.objectContaining({ platform: "bluesky", health: "reauth_required" })],
        ["post.failed", expect.objectContaining({ post_id: none.id, platform: "x" })],
        ["post.failed", expect.objectContaining({ post_id: none.id, platform: "bluesky" })],
      ]);
    });

    it("an invalid health answers 400; an unconnected network 404", async () => {
      const user = await h.user({ accounts: ["x"] });
      const bad = await user.request("PATCH", "/sandbox/accounts/x", { body: { health: "sick" } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: "health must be one of healthy, expiring, reauth_required." });
      expect(
        (await user.request("PATCH", "/sandbox/accounts/bluesky", { body: { health: "healthy" } })).status,
      ).toBe(404);
    });
  });
}
