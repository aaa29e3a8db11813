import { describe, expect, it } from "vitest";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import { generateApiKey } from "../../keys.ts";
import { KEY_USE_GRANULARITY_MS } from "../../service/auth.ts";
import { ApiUser, type Harness, keysOf } from "./harness.ts";

/** The same user calling with another of its keys. */
const withKey = (user: ApiUser, apiKey: string) => new ApiUser(user.target, { ...user.provisioned, apiKey });

export function keyTests(h: Harness): void {
  describe("API keys (GET/POST /keys, DELETE /keys/{id})", () => {
    it("GET /keys lists each key with its hint, never the key, and when it was made and last used", async () => {
      const user = await h.user();
      await h.clock.advance(5_000);
      const res = await user.get("/keys");
      expect(res.status).toBe(200);
      const [stored] = await h.store.listKeys(user.id);
      expect(res.body).toEqual({
        data: [
          {
            id: stored!.id,
            mode: "test",
            name: null,
            hint: `${user.apiKey.slice(0, 8)}…${user.apiKey.slice(-4)}`,
            created_at: stored!.created_at,
            // This very call used it.
            last_used_at: h.clock.now(),
          },
        ],
      });
      expect(res.text).not.toContain(user.apiKey.slice(8, -4));
    });

    it("POST /keys answers 201 {id, key, mode, name, created_at}, the only time the key appears; it works at once", async () => {
      const user = await h.user();
      const res = await user.post("/keys", { mode: "test", name: "  CI deploys  " });
      expect(res.status).toBe(201);
      expect(keysOf(res.body)).toEqual(["created_at", "id", "key", "mode", "name"]);
      expect(res.body).toMatchObject({ mode: "test", name: "CI deploys", created_at: h.clock.now() });
      expect(res.body.id).toMatch(/^key_[0-9A-Z]{26}$/);
      expect(res.body.key).toMatch(/^sp_test_[0-9A-Za-z]{40}$/);
      const made = withKey(user, res.body.key);
      expect((await made.get("/me")).body.id).toBe(user.id);
      const listed = await user.get("/keys");
      expect(listed.body.data.map((k: { id: string; name: string | null }) => [k.id, k.name])).toEqual([
        [expect.any(String), null],
        [res.body.id, "CI deploys"],
      ]);
      expect(listed.text).not.toContain(res.body.key);
      // The store keeps the hash only.
      expect(JSON.stringify(await h.store.listKeys(user.id))).not.toContain(res.body.key);
    });

    it("a test key manages test keys only: a live key asked for is 403 saying so, and nothing is made", async () => {
      const user = await h.user();
      const res = await user.post("/keys", { mode: "live" });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error:
          "A test key can create test keys only: sign in with a live key (sp_live_…) to create a live key.",
      });
      expect(await h.store.listKeys(user.id)).toHaveLength(1);
    });

    it("a live key manages both: it makes live and test keys; a test key neither lists nor revokes live ones", async () => {
      const owner = await h.user({ key: generateApiKey("live") });
      const live = await owner.post("/keys", { mode: "live", name: "production" });
      expect(live.status).toBe(201);
      expect(live.body.key).toMatch(/^sp_live_/);
      const test = await owner.post("/keys", { mode: "test" });
      expect(test.status).toBe(201);
      const modes = (await owner.get("/keys")).body.data.map((k: { mode: string }) => k.mode);
      expect(modes).toEqual(["live", "live", "test"]);

      const tester = withKey(owner, test.body.key);
      const seen = await tester.get("/keys");
      expect(seen.body.data.map((k: { id: string }) => k.id)).toEqual([test.body.id]);
      const refused = await tester.delete(`/keys/${live.body.id}`);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(
        "A test key can revoke test keys only: sign in with a live key (sp_live_…) to revoke a live key.",
      );
      expect((await withKey(owner, live.body.key).get("/me")).status).toBe(200);
      expect((await owner.delete(`/keys/${test.body.id}`)).status).toBe(200);
    });

    it("DELETE /keys/{id} revokes at once: the key's next call is 401; a second revoke, or another user's key, is 404", async () => {
      const user = await h.user();
      const other = await h.user();
      const made = (await user.post("/keys", { mode: "test" })).body;
      const res = await user.delete(`/keys/${made.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: true, id: made.id });
      const after = await withKey(user, made.key).get("/me");
      expect(after.status).toBe(401);
      expect(after.body).toEqual({ error: CONTRACT_MESSAGES.invalidKey });
      expect((await user.get("/keys")).body.data.map((k: { id: string }) => k.id)).not.toContain(made.id);
      const again = await user.delete(`/keys/${made.id}`);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: "API key not found." });
      const [othersKey] = await h.store.listKeys(other.id);
      expect((await user.delete(`/keys/${othersKey!.id}`)).status).toBe(404);
      expect((await other.get("/me")).status).toBe(200);
    });

    it("the key making the request may revoke itself: 200, then 401", async () => {
      const user = await h.user();
      const [own] = await h.store.listKeys(user.id);
      const res = await user.delete(`/keys/${own!.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: true, id: own!.id });
      expect((await user.get("/keys")).status).toBe(401);
    });

    it("last_used_at is written at most once a minute per key", async () => {
      const user = await h.user();
      const first = h.clock.now();
      const lastUsed = async () => (await user.get("/keys")).body.data[0].last_used_at;
      expect(await lastUsed()).toBe(first);
      await h.clock.advance(KEY_USE_GRANULARITY_MS / 2);
      expect(await lastUsed()).toBe(first);
      await h.clock.advance(KEY_USE_GRANULARITY_MS / 2);
      expect(await lastUsed()).toBe(first + KEY_USE_GRANULARITY_MS);
      // A key never used says so.
      await user.post("/keys", { mode: "test" });
      expect((await user.get("/keys")).body.data[1].last_used_at).toBeNull();
    });

    it("a body without a valid mode or name answers 400 naming the field", async () => {
      const user = await h.user();
      for (const body of [
        {},
        { mode: "prod" },
        { mode: "test", name: "" },
        { mode: "test", name: "x".repeat(101) },
      ]) {
        const res = await user.post("/keys", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error, JSON.stringify(body)).toMatch(
          Object.keys(body).length === 2 ? /name/ : /mode/,
        );
      }
      expect(await h.store.listKeys(user.id)).toHaveLength(1);
    });

    it("POST /keys keeps no answer for an Idempotency-Key (it would hold the key): each request makes its own key", async () => {
      const user = await h.user();
      const headers = { "idempotency-key": "same-key-twice" };
      const a = await user.post("/keys", { mode: "test" }, { headers });
      const b = await user.post("/keys", { mode: "test" }, { headers });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.headers.get("idempotent-replayed")).toBeNull();
      expect(a.body.key).not.toBe(b.body.key);
      expect(await h.store.findIdempotentRequest(user.id, "same-key-twice", h.clock.now())).toBeNull();
    });
  });
}
