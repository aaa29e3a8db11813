import { beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../ids.ts";
import { IdempotencyKeyTaken } from "../../store/idempotency-key-taken.ts";
import type { AccountRecord, PostRecord, Store } from "../../store/types.ts";
import { type StoreFixture, T0 } from "./fixture.ts";

/** Requests made with an Idempotency-Key. */
export function describeIdempotency(fixture: StoreFixture): void {
  const { user, post, target, event, webhook } = fixture;
  let store: Store;

  describe("idempotency keys", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    const claim = (userId: string, key: string, at: number, fingerprint = "POST /api/v1/posts abc") => ({
      user_id: userId,
      key,
      fingerprint,
      status: null,
      body: null,
      created_at: at,
      expires_at: at + 300_000,
    });

    it("beginIdempotentRequest claims a free key (null) and otherwise answers the record there, unchanged", async () => {
      const u = await user();
      expect(await store.beginIdempotentRequest(claim(u.id, "k", T0))).toBeNull();
      expect(await store.beginIdempotentRequest(claim(u.id, "k", T0 + 1, "other"))).toEqual(
        claim(u.id, "k", T0),
      );
      await store.completeIdempotentRequest(u.id, "k", {
        status: 201,
        body: '{"id":"post_1"}',
        expires_at: T0 + 86_400_000,
      });
      expect(await store.beginIdempotentRequest(claim(u.id, "k", T0 + 2))).toEqual({
        ...claim(u.id, "k", T0),
        status: 201,
        body: '{"id":"post_1"}',
        expires_at: T0 + 86_400_000,
      });
    });

    it("of concurrent claims of one key exactly one succeeds", async () => {
      const u = await user();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => store.beginIdempotentRequest(claim(u.id, "race", T0))),
      );
      expect(results.filter((r) => r === null)).toHaveLength(1);
    });

    it("keys are per user, and an expired record is replaced", async () => {
      const a = await user();
      const b = await user();
      expect(await store.beginIdempotentRequest(claim(a.id, "k", T0))).toBeNull();
      expect(await store.beginIdempotentRequest(claim(b.id, "k", T0))).toBeNull();
      expect(await store.beginIdempotentRequest(claim(a.id, "k", T0 + 299_999))).not.toBeNull();
      expect(await store.beginIdempotentRequest(claim(a.id, "k", T0 + 300_000, "new"))).toBeNull();
      expect((await store.beginIdempotentRequest(claim(a.id, "k", T0 + 300_001)))!.fingerprint).toBe("new");
    });

    it("releaseIdempotentRequest frees the key", async () => {
      const u = await user();
      await store.beginIdempotentRequest(claim(u.id, "k", T0));
      await store.releaseIdempotentRequest(u.id, "k");
      expect(await store.beginIdempotentRequest(claim(u.id, "k", T0 + 1))).toBeNull();
    });

    /** The record a keyed request keeps as its answer, written through Effects.idempotency. */
    const answer = (userId: string, key: string, status: number, body: unknown) => ({
      ...claim(userId, key, T0),
      status,
      body: JSON.stringify(body),
      expires_at: T0 + 86_400_000,
    });
    /** What a retry of the claimed key finds: the answer (replay), or null when the key is free. */
    const retry = (userId: string, key: string) => store.beginIdempotentRequest(claim(userId, key, T0 + 1));

    it("insertPost that claims its key: takes a free or expired key, and with a live record writes nothing and throws", async () => {
      const u = await user();
      const claiming = (key: string, p: PostRecord, at = T0) => ({
        ...answer(u.id, key, 201, p),
        created_at: at,
        claim: true as const,
      });
      const first = post(u.id, { status: "draft", scheduled_at: null });
      await store.insertPost(first, [target(first.id)], { idempotency: claiming("free", first) });
      const { claim: _, ...kept } = claiming("free", first);
      expect(await store.findIdempotentRequest(u.id, "free", T0 + 1)).toEqual(kept);

      // Taken by a finished request, and by one in flight: nothing of the second post is written.
      await store.beginIdempotentRequest(claim(u.id, "in-flight", T0));
      for (const key of ["free", "in-flight"]) {
        const second = post(u.id, { status: "draft", scheduled_at: null });
        await expect(
          store.insertPost(second, [target(second.id)], { idempotency: claiming(key, second, T0 + 1) }),
        ).rejects.toBeInstanceOf(IdempotencyKeyTaken);
        expect(await store.getPost(u.id, second.id)).toBeNull();
        expect(await store.getTargets(second.id)).toEqual([]);
      }
      expect((await store.findIdempotentRequest(u.id, "free", T0 + 1))!.body).toBe(JSON.stringify(first));
      expect(await store.countPostsCreatedSince(u.id, 0)).toBe(1);

      // An expired record no longer holds the key; findIdempotentRequest no longer sees it.
      const late = T0 + 300_000;
      expect(await store.findIdempotentRequest(u.id, "in-flight", late)).toBeNull();
      const third = post(u.id, { status: "draft", scheduled_at: null });
      await store.insertPost(third, [target(third.id)], {
        idempotency: claiming("in-flight", third, late),
      });
      expect((await store.findIdempotentRequest(u.id, "in-flight", late))!.status).toBe(201);
    });

    it("of concurrent inserts that claim one key exactly one writes its post", async () => {
      const u = await user();
      const posts = Array.from({ length: 5 }, () => post(u.id, { status: "draft", scheduled_at: null }));
      const results = await Promise.allSettled(
        posts.map((p) =>
          store.insertPost(p, [target(p.id)], {
            idempotency: { ...answer(u.id, "race", 201, p), claim: true },
          }),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) {
        if (r.status === "rejected") expect(r.reason).toBeInstanceOf(IdempotencyKeyTaken);
      }
      expect(await store.countPostsCreatedSince(u.id, 0)).toBe(1);
    });

    it("every write that takes Effects stores the keyed answer in its own step: a retry finds the answer", async () => {
      const u = await user();
      const keys = [
        "insertPost",
        "transitionPost",
        "deletePost",
        "putAccount",
        "deleteAccount",
        "reportMetrics",
        "insertMedia",
        "createWebhook",
        "appendEvents",
        "resendEvent",
        "deleteWebhook",
      ];
      for (const key of keys) expect(await store.beginIdempotentRequest(claim(u.id, key, T0))).toBeNull();
      const p = post(u.id, { status: "draft", scheduled_at: null });
      await store.insertPost(p, [target(p.id)], { idempotency: answer(u.id, "insertPost", 201, p) });
      const published = target(p.id, "x", { status: "published", published_at: T0 });
      const seen: PostRecord[] = [];
      const moved = await store.transitionPost(p.id, ["draft"], { status: "published" }, [published], (r) => {
        seen.push(r);
        return { events: [event(u.id)], idempotency: answer(u.id, "transitionPost", 200, r) };
      });
      expect(seen).toEqual([moved]);
      await store.reportMetrics(p.id, "x", { reach: 9, likes: 1, comments: 0, shares: 0 }, (t) => ({
        idempotency: answer(u.id, "reportMetrics", 200, t),
      }));
      await store.deletePost(u.id, p.id, (r) => ({ idempotency: answer(u.id, "deletePost", 200, r.id) }));
      const account: AccountRecord = {
        user_id: u.id,
        mode: "test",
        platform: "x",
        handle: "@u",
        followers: 0,
        health: "healthy",
        connected_at: T0,
        credentials: null,
      };
      await store.putAccount(account, { idempotency: answer(u.id, "putAccount", 201, account) });
      await store.deleteAccount(u.id, "test", "x", {
        idempotency: answer(u.id, "deleteAccount", 200, "x"),
      });
      const media = {
        id: newId("med", T0),
        user_id: u.id,
        url: "https://example.com/a.png",
        type: "image/png",
        size: 0,
        status: "ready" as const,
        path: null,
        created_at: T0,
      };
      await store.insertMedia(media, { idempotency: answer(u.id, "insertMedia", 201, media.id) });
      const w = webhook(u.id);
      await store.createWebhook(w, { idempotency: answer(u.id, "createWebhook", 201, w.id) });
      const test = event(u.id, "post.published", { webhook_id: w.id });
      await store.appendEvents([test], { idempotency: answer(u.id, "appendEvents", 202, test.id) });
      const resent = await store.resendEvent(w.id, test.id, T0, (d) => ({
        idempotency: answer(u.id, "resendEvent", 202, d.id),
      }));
      await store.deleteWebhook(u.id, w.id, { idempotency: answer(u.id, "deleteWebhook", 200, w.id) });

      const answers: Record<string, [number, unknown]> = {
        insertPost: [201, p],
        transitionPost: [200, { ...p, status: "published" }],
        reportMetrics: [200, { ...published, reach: 9, likes: 1 }],
        deletePost: [200, p.id],
        putAccount: [201, account],
        deleteAccount: [200, "x"],
        insertMedia: [201, media.id],
        createWebhook: [201, w.id],
        appendEvents: [202, test.id],
        resendEvent: [202, resent!.id],
        deleteWebhook: [200, w.id],
      };
      for (const key of keys) {
        const found = await retry(u.id, key);
        const [status, body] = answers[key]!;
        expect({ ...found, body: JSON.parse(found?.body ?? "null") }, key).toEqual({
          ...answer(u.id, key, status, null),
          body,
        });
      }
    });

    it("a write that makes no change stores no answer: its key stays in flight", async () => {
      const u = await user();
      const keys = ["refused transition", "missing post", "missing account", "missing webhook", "failed"];
      for (const key of keys) expect(await store.beginIdempotentRequest(claim(u.id, key, T0))).toBeNull();
      const p = post(u.id);
      await store.insertPost(p, [target(p.id)]);
      let called = false;
      const refused = await store.transitionPost(p.id, ["draft"], { status: "publishing" }, undefined, () => {
        called = true;
        return { idempotency: answer(u.id, "refused transition", 200, "moved") };
      });
      expect(refused).toBeNull();
      expect(called).toBe(false);
      await store.deletePost(u.id, "post_missing", () => ({
        idempotency: answer(u.id, "missing post", 200, "deleted"),
      }));
      await store.deleteAccount(u.id, "test", "tiktok", {
        idempotency: answer(u.id, "missing account", 200, "deleted"),
      });
      await store.deleteWebhook(u.id, "wh_missing", {
        idempotency: answer(u.id, "missing webhook", 200, "deleted"),
      });
      // The insert fails (the id is taken): the whole step is undone, the answer with it.
      await expect(
        store.insertPost(p, [target(p.id)], { idempotency: answer(u.id, "failed", 201, p) }),
      ).rejects.toThrow();
      for (const key of keys) expect(await retry(u.id, key), key).toEqual(claim(u.id, key, T0));
    });

    it("an answer is stored even when its in-flight claim is gone", async () => {
      const u = await user();
      const p = post(u.id);
      await store.insertPost(p, [target(p.id)], { idempotency: answer(u.id, "lost claim", 201, p) });
      expect(await retry(u.id, "lost claim")).toEqual(answer(u.id, "lost claim", 201, p));
    });

    it("completeIdempotentRequest stores the answer sent over the one the change wrote", async () => {
      const u = await user();
      await store.beginIdempotentRequest(claim(u.id, "k", T0));
      const p = post(u.id);
      await store.insertPost(p, [target(p.id)], { idempotency: answer(u.id, "k", 201, p) });
      await store.completeIdempotentRequest(u.id, "k", {
        status: 201,
        body: '{"sent":true}',
        expires_at: T0 + 86_400_000,
      });
      expect(await retry(u.id, "k")).toEqual({ ...answer(u.id, "k", 201, null), body: '{"sent":true}' });
    });

    it("releaseIdempotentRequest leaves a key whose change was written: it keeps its answer", async () => {
      const u = await user();
      await store.beginIdempotentRequest(claim(u.id, "k", T0));
      const p = post(u.id);
      await store.insertPost(p, [target(p.id)], { idempotency: answer(u.id, "k", 201, p) });
      await store.releaseIdempotentRequest(u.id, "k");
      expect(await retry(u.id, "k")).toEqual(answer(u.id, "k", 201, p));
    });

    it("releaseInterruptedIdempotentRequests frees every key still in flight and keeps the answered ones", async () => {
      if (store.shared) return; // see "shared stores free nothing in flight at start"
      const a = await user();
      const b = await user();
      for (const [userId, key] of [
        [a.id, "cut"],
        [b.id, "cut"],
        [a.id, "answered"],
        [a.id, "written"],
      ] as const) {
        expect(await store.beginIdempotentRequest(claim(userId, key, T0))).toBeNull();
      }
      await store.completeIdempotentRequest(a.id, "answered", {
        status: 400,
        body: '{"error":"no"}',
        expires_at: T0 + 86_400_000,
      });
      const p = post(a.id);
      await store.insertPost(p, [target(p.id)], { idempotency: answer(a.id, "written", 201, p) });
      expect(await store.releaseInterruptedIdempotentRequests()).toBe(2);
      expect(await retry(a.id, "cut")).toBeNull();
      expect(await retry(b.id, "cut")).toBeNull();
      expect((await retry(a.id, "answered"))!.status).toBe(400);
      expect(await retry(a.id, "written")).toEqual(answer(a.id, "written", 201, p));
    });
  });
}
