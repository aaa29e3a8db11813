import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  type SocialPublishClient,
  UnprocessableEntityError,
  WaitForStatusError,
} from "../../../src/client/index.ts";
import { PLANS } from "../../../src/contract/plans.ts";
import { Account, Target } from "../../../src/contract/resources.ts";
import { type ProvisionedUser, provisionUser } from "../../../src/provision.ts";
import type { Store } from "../../../src/store/types.ts";
import type { FakeClock } from "../../../src/testing/fake-clock.ts";
import { SAMPLE_PNG } from "../../../src/testing/media-samples.ts";
import { WebhookReceiver } from "../../../src/testing/webhook-receiver.ts";

/** The reference service, reachable by a client, with the store and clock behind it. */
export interface ClientTarget {
  client(apiKey: string): SocialPublishClient;
  store: Store;
  clock: FakeClock;
  close(): Promise<void>;
}

const HOUR = 60 * 60 * 1000;

/**
 * What a user of the client relies on, checked against the real reference service — run once with the
 * service in-process (injected fetch) and once over HTTP (the default undici transport).
 */
export function describeClientAgainstService(name: string, makeTarget: () => Promise<ClientTarget>): void {
  describe(`client against the reference service (${name})`, () => {
    let target: ClientTarget;
    let user: ProvisionedUser;
    let api: SocialPublishClient;

    beforeEach(async () => {
      target = await makeTarget();
      user = await provisionUser(target.store, {
        plan: "creator",
        accounts: ["x", "bluesky", "linkedin"],
        now: target.clock.now(),
      });
      api = target.client(user.apiKey);
    });
    afterEach(async () => {
      await api.close();
      await target.close();
    });

    it("me() returns the key's user with its plan limits", async () => {
      const me = await api.me();
      expect(me).toMatchObject({ id: user.user.id, email: user.user.email, plan: "creator" });
      expect(me.limits).toEqual(PLANS.creator);
      expect(me.usage.api_calls_this_month).toBe(1);
    });

    it("publishes now, then reads the post back by id, in the list and per network", async () => {
      const post = await api.posts.create({ caption: "Hello from the client", platforms: ["x", "bluesky"] });
      expect(post).toMatchObject({ status: "published", scheduled_at: null, platforms: ["x", "bluesky"] });
      expect(post.published_at).toBe(target.clock.now());
      expect(await api.posts.get(post.id)).toEqual(post);
      expect((await api.posts.list()).data.map((p) => p.id)).toEqual([post.id]);
      const targets = await api.posts.targets(post.id);
      expect(targets.data.map((t) => [t.platform, t.status])).toEqual([
        ["x", "published"],
        ["bluesky", "published"],
      ]);
    });

    it("schedules a post that publishes when its time comes", async () => {
      const due = target.clock.now() + HOUR;
      const post = await api.posts.create({ caption: "Later", platforms: ["linkedin"], schedule_at: due });
      expect(post).toMatchObject({ status: "scheduled", scheduled_at: due, published_at: null });
      await target.clock.advance(HOUR);
      expect(await api.posts.get(post.id)).toMatchObject({ status: "published", published_at: due });
    });

    it("waitFor resolves with the post once the scheduler has published it", async () => {
      const post = await api.posts.create({
        caption: "Wait for me",
        platforms: ["x"],
        schedule_at: target.clock.now() + HOUR,
      });
      const waiting = api.posts.waitFor(post.id, "published", { intervalMs: 5, timeoutMs: 30_000 });
      await target.clock.advance(HOUR);
      expect(await waiting).toMatchObject({ id: post.id, status: "published" });
    });

    it("waitFor gives up with the last status when the time runs out", async () => {
      const post = await api.posts.create({
        platforms: ["x"],
        caption: "Not yet",
        schedule_at: target.clock.now() + HOUR,
      });
      const error = await api.posts
        .waitFor(post.id, "published", { intervalMs: 5, timeoutMs: 30 })
        .catch((e) => e);
      expect(error).toBeInstanceOf(WaitForStatusError);
      expect(error.lastStatus).toBe("scheduled");
      expect(error.message).toMatch(/is still scheduled after 30 ms/);
    });

    it("waitFor fails at once when the post is published and another status is wanted", async () => {
      const post = await api.posts.create({ platforms: ["x"], caption: "Now" });
      await expect(api.posts.waitFor(post.id, "scheduled", { timeoutMs: 60_000 })).rejects.toThrow(
        /is published, so it will not become scheduled/,
      );
    });

    it("waitFor fails as soon as the post goes back to draft because every network failed", async () => {
      const broken = await provisionUser(target.store, {
        accounts: [{ platform: "x", health: "reauth_required" }],
        now: target.clock.now(),
      });
      const owner = target.client(broken.apiKey);
      try {
        const post = await owner.posts.create({
          caption: "Doomed",
          platforms: ["x"],
          schedule_at: target.clock.now() + HOUR,
        });
        const waiting = owner.posts
          .waitFor(post.id, "published", { intervalMs: 5, timeoutMs: 30_000 })
          .catch((e) => e);
        await target.clock.advance(HOUR);
        const error = await waiting;
        expect(error).toBeInstanceOf(WaitForStatusError);
        expect(error.lastStatus).toBe("draft");
        expect(error.message).toMatch(/went back to draft: publishing failed on every network/);
        const { data: targets } = await owner.posts.targets(post.id);
        expect(targets[0]).toMatchObject({ platform: "x", status: "failed" });
      } finally {
        await owner.close();
      }
    });

    it("waitFor surfaces a deleted post as NotFoundError", async () => {
      const post = await api.posts.create({
        platforms: ["x"],
        caption: "Soon gone",
        schedule_at: target.clock.now() + HOUR,
      });
      await api.posts.delete(post.id);
      await expect(api.posts.waitFor(post.id, "published", { intervalMs: 5 })).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });

    it("publishes a draft, and refuses to publish a post that is no longer one", async () => {
      const draft = await api.posts.create({ platforms: ["x"], caption: "Draft first", draft: true });
      expect(draft.status).toBe("draft");
      const published = await api.posts.publish(draft.id);
      expect(published).toMatchObject({ id: draft.id, status: "published" });
      const again = await api.posts.publish(draft.id).catch((e) => e);
      expect(again).toBeInstanceOf(ConflictError);
      expect(again.message).toMatch(/Only a draft can be published/);
    });

    it("update() edits and reschedules a post with text per network; it publishes as edited; a published one is ConflictError", async () => {
      const post = await api.posts.create({ caption: "v1", platforms: ["x"], draft: true });
      const due = target.clock.now() + HOUR;
      const edited = await api.posts.update(post.id, {
        caption: "v2",
        captions: { linkedin: "v2, the long version" },
        platforms: ["x", "linkedin"],
        schedule_at: due,
      });
      expect(edited).toMatchObject({ id: post.id, caption: "v2", status: "scheduled", scheduled_at: due });
      await target.clock.advance(HOUR);
      expect(await api.posts.get(post.id)).toMatchObject({ status: "published", published_at: due });
      const texts = (await api.posts.targets(post.id)).data.map((t) => [t.platform, t.text, t.status]);
      expect(texts).toEqual([
        ["x", "v2", "published"],
        ["linkedin", "v2, the long version", "published"],
      ]);
      const late = await api.posts.update(post.id, { caption: "v3" }).catch((e) => e);
      expect(late).toBeInstanceOf(ConflictError);
      expect(late.message).toMatch(/already published/);
    });

    it("deleting a scheduled post cancels it", async () => {
      const post = await api.posts.create({
        platforms: ["x"],
        caption: "Cancel me",
        schedule_at: target.clock.now() + HOUR,
      });
      expect(await api.posts.delete(post.id)).toEqual({ deleted: true, id: post.id });
      await target.clock.advance(2 * HOUR);
      const error = await api.posts.get(post.id).catch((e) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe("Post not found.");
      expect((await api.posts.list()).data).toEqual([]);
    });

    it("lists one page at a time and listAll walks every page, newest first", async () => {
      const created: string[] = [];
      for (let i = 0; i < 5; i++) {
        created.push((await api.posts.create({ platforms: ["x"], caption: `Post ${i}` })).id);
        await target.clock.advance(1000);
      }
      const newestFirst = [...created].reverse();

      const first = await api.posts.list({ limit: 2 });
      expect(first.data.map((p) => p.id)).toEqual(newestFirst.slice(0, 2));
      expect(first.nextCursor).not.toBeNull();
      const second = await api.posts.list({ limit: 2, cursor: first.nextCursor ?? undefined });
      expect(second.data.map((p) => p.id)).toEqual(newestFirst.slice(2, 4));

      const all: string[] = [];
      for await (const post of api.posts.listAll({ limit: 2 })) all.push(post.id);
      expect(all).toEqual(newestFirst);
    });

    it("filters the list by status", async () => {
      const now = await api.posts.create({ platforms: ["x"], caption: "Now" });
      const later = await api.posts.create({
        platforms: ["x"],
        caption: "Later",
        schedule_at: target.clock.now() + HOUR,
      });
      expect((await api.posts.list({ status: "scheduled" })).data.map((p) => p.id)).toEqual([later.id]);
      expect((await api.posts.list({ status: ["published"] })).data.map((p) => p.id)).toEqual([now.id]);
    });

    it("lists the connected accounts and reports analytics from sandbox metrics", async () => {
      const accounts = await api.accounts.list();
      expect(accounts.data.map((a) => a.platform)).toEqual(["x", "linkedin", "bluesky"]);

      const post = await api.posts.create({ platforms: ["x"], caption: "Measured" });
      const reported = await api.request({
        method: "POST",
        path: "/sandbox/metrics",
        json: { post_id: post.id, platform: "x", reach: 200, likes: 10, comments: 5, shares: 5 },
        schema: Target,
      });
      expect(reported.data).toMatchObject({ platform: "x", reach: 200 });
      const analytics = await api.analytics.get();
      expect(analytics).toMatchObject({ totalReach: 200, engagementRate: 10, postsPublished: 1 });
      expect(await api.posts.get(post.id)).toMatchObject({ reach: 200, engagement_rate: 10 });
    });

    it("turns a wrong key into AuthenticationError with the contract's message and a request id", async () => {
      const stranger = target.client("sp_test_00000000000000000000000000000000");
      const error = await stranger.me().catch((e) => e);
      await stranger.close();
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error.message).toBe("Invalid or revoked API key.");
      expect(error.requestId).toEqual(expect.any(String));
      expect(error.headers.get("www-authenticate")).toMatch(/^Bearer/);
    });

    it("turns a broken rule into BadRequestError with the service's message", async () => {
      const error = await api.posts.create({ platforms: ["tiktok"], caption: "Nowhere" }).catch((e) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.message).toBe("Select at least one connected network.");
      const past = await api.posts
        .create({ platforms: ["x"], caption: "Too late", schedule_at: target.clock.now() - HOUR })
        .catch((e) => e);
      expect(past).toBeInstanceOf(BadRequestError);
      expect(past.message).toMatch(/schedule_at/);
    });

    it("a create repeated with the same Idempotency-Key returns the first post and creates no second one", async () => {
      const body = { caption: "Exactly once", platforms: ["x"] };
      const first = await api.posts.create(body, { idempotencyKey: "release-v1.2.3" });
      const again = await api.posts.create(body, { idempotencyKey: "release-v1.2.3" });
      expect(again).toEqual(first);
      expect((await api.posts.list()).data.map((p) => p.id)).toEqual([first.id]);
    });

    it("the same Idempotency-Key on a different request is UnprocessableEntityError", async () => {
      await api.posts.create({ caption: "One", platforms: ["x"] }, { idempotencyKey: "key-1" });
      const error = await api.posts
        .create({ caption: "Two", platforms: ["x"] }, { idempotencyKey: "key-1" })
        .catch((e) => e);
      expect(error).toBeInstanceOf(UnprocessableEntityError);
      expect(error.message).toMatch(/used for a different request/);
    });

    it("creates a key (shown once), lists it by its hint, and revokes it: the revoked key is AuthenticationError", async () => {
      const made = await api.keys.create({ mode: "test", name: "reports" });
      expect(made).toMatchObject({ mode: "test", name: "reports" });
      const listed = await api.keys.list();
      expect(listed.data.map((k) => [k.name, k.hint])).toEqual([
        [null, `${user.apiKey.slice(0, 8)}…${user.apiKey.slice(-4)}`],
        ["reports", `${made.key.slice(0, 8)}…${made.key.slice(-4)}`],
      ]);
      const other = target.client(made.key);
      expect((await other.me()).id).toBe(user.user.id);
      expect(await api.keys.revoke(made.id)).toEqual({ deleted: true, id: made.id });
      await expect(other.me()).rejects.toBeInstanceOf(AuthenticationError);
      await other.close();
      await expect(api.keys.create({ mode: "live" })).rejects.toMatchObject({ status: 403 });
    });

    it("connects and disconnects a sandbox account", async () => {
      const connected = await api.accounts.connect({ platform: "threads", handle: "acme" });
      expect(connected).toMatchObject({ platform: "threads", handle: "acme", health: "healthy" });
      expect((await api.accounts.list()).data.map((a) => a.platform)).toContain("threads");
      expect(await api.accounts.disconnect("threads")).toEqual({ deleted: true, id: "threads" });
      expect((await api.accounts.list()).data.map((a) => a.platform)).not.toContain("threads");
      await expect(api.accounts.disconnect("threads")).rejects.toBeInstanceOf(NotFoundError);
    });

    it("creates, lists, reads, tests, updates and deletes a webhook endpoint; the secret is shown once", async () => {
      const created = await api.webhooks.create({
        url: "http://127.0.0.1:9/hooks",
        events: ["post.published"],
      });
      expect(created).toMatchObject({
        url: "http://127.0.0.1:9/hooks",
        events: ["post.published"],
        status: "enabled",
      });
      expect(created.secret).toMatch(/^whsec_/);
      const listed = await api.webhooks.list();
      expect(listed.data).toEqual([expect.objectContaining({ id: created.id })]);
      expect(listed.data[0]).not.toHaveProperty("secret");
      expect(await api.webhooks.get(created.id)).not.toHaveProperty("secret");
      const event = await api.webhooks.test(created.id);
      expect(event.type).toBe("post.published");
      const { secret: _, ...endpoint } = created;
      expect(await api.webhooks.update(created.id, { events: ["post.failed"], status: "disabled" })).toEqual({
        ...endpoint,
        events: ["post.failed"],
        status: "disabled",
      });
      await expect(api.webhooks.test(created.id)).rejects.toMatchObject({ status: 409 });
      expect((await api.webhooks.update(created.id, { status: "enabled" })).status).toBe("enabled");
      expect(await api.webhooks.delete(created.id)).toEqual({ deleted: true, id: created.id });
      await expect(api.webhooks.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it("reads an endpoint's delivery log page by page and resends an event with the same webhook-id", async () => {
      const receiver = await WebhookReceiver.start((_, index) => ({ status: index === 0 ? 500 : 200 }));
      try {
        const endpoint = await api.webhooks.create({ url: receiver.url, events: ["post.published"] });
        await api.posts.create({ caption: "Logged", platforms: ["x"] });
        await target.clock.advance(0);
        await target.clock.advance(5_500);
        expect(receiver.received.map((r) => r.headers["webhook-id"])).toHaveLength(2);
        const eventId = receiver.received[0]!.headers["webhook-id"] as string;

        const newest = await api.webhooks.attempts(endpoint.id, { limit: 1 });
        expect(newest.data).toEqual([
          expect.objectContaining({ event_id: eventId, attempt: 2, response_status: 200, error: null }),
        ]);
        expect(newest.nextCursor).not.toBeNull();
        const older = await api.webhooks.attempts(endpoint.id, { limit: 1, cursor: newest.nextCursor! });
        expect(older.data).toEqual([
          expect.objectContaining({ event_id: eventId, attempt: 1, response_status: 500 }),
        ]);
        expect(older.nextCursor).toBeNull();

        const resent = await api.webhooks.resend(endpoint.id, eventId);
        expect(resent).toMatchObject({ resent: true, event_id: eventId });
        await target.clock.advance(0);
        expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([eventId, eventId, eventId]);
        const log = await api.webhooks.attempts(endpoint.id);
        expect(log.data[0]).toMatchObject({
          delivery_id: resent.delivery_id,
          attempt: 1,
          response_status: 200,
        });
        await expect(api.webhooks.resend(endpoint.id, "evt_unknown")).rejects.toBeInstanceOf(NotFoundError);
      } finally {
        await receiver.close();
      }
    });

    it("uploads media as bytes and by URL, and publishes a post with the med_ id", async () => {
      const png = SAMPLE_PNG;
      const uploaded = await api.media.upload({ data: png, contentType: "image/png" });
      expect(uploaded).toMatchObject({ type: "image/png", size: png.length, status: "ready" });
      expect(uploaded.id).toMatch(/^med_/);
      const remote = await api.media.upload({ url: "https://cdn.example.com/launch", type: "video/mp4" });
      expect(remote).toMatchObject({ url: "https://cdn.example.com/launch", type: "video/mp4" });
      const post = await api.posts.create({
        caption: "With a picture",
        platforms: ["x"],
        media: uploaded.id,
      });
      expect(post.has_media).toBe(true);
    });

    it("schedule() queues a post for an exact time, or for the next optimal slot", async () => {
      const at = target.clock.now() + 2 * HOUR;
      const exact = await api.schedule({ caption: "Exactly then", platforms: ["x"], at });
      expect(exact).toMatchObject({ status: "scheduled", scheduled_at: at });
      const next = await api.schedule({ caption: "Whenever is best", platforms: ["linkedin"], at: "next" });
      expect(next.status).toBe("scheduled");
      expect(next.scheduled_at).toBeGreaterThanOrEqual(target.clock.now() + 5 * 60 * 1000);
    });

    it("validate() answers what each network would get and stores nothing; an invalid post is BadRequestError", async () => {
      const checked = await api.posts.validate({
        caption: "Ready?",
        captions: { bluesky: "Ready, Bluesky?" },
        platforms: ["x", "bluesky"],
      });
      expect(checked).toEqual({
        valid: true,
        targets: [
          { platform: "x", parts: [{ text: "Ready?", media: [] }], first_comment: null, notes: [] },
          {
            platform: "bluesky",
            parts: [{ text: "Ready, Bluesky?", media: [] }],
            first_comment: null,
            notes: ["text from captions.bluesky instead of caption"],
          },
        ],
      });
      expect((await api.posts.list()).data).toEqual([]);
      const refused = await api.posts.validate({ platforms: ["x"] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(BadRequestError);
    });

    it("retry() sends again a network that failed once its account is reconnected; with nothing failed, ConflictError", async () => {
      await api.request({
        method: "POST",
        path: "/sandbox/accounts/bluesky",
        json: { health: "reauth_required" },
        schema: Account,
      });
      const post = await api.posts.create({ caption: "Again", platforms: ["x", "bluesky"] });
      expect((await api.posts.targets(post.id)).data.map((t) => t.status)).toEqual(["published", "failed"]);
      await api.accounts.connect({ platform: "bluesky" });
      expect(await api.posts.retry(post.id)).toMatchObject({ id: post.id, status: "published" });
      expect((await api.posts.targets(post.id)).data.map((t) => t.status)).toEqual([
        "published",
        "published",
      ]);
      const again = await api.posts.retry(post.id).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(ConflictError);
    });

    it("an unknown post id is NotFoundError", async () => {
      await expect(api.posts.get("post_does_not_exist")).rejects.toBeInstanceOf(NotFoundError);
      await expect(api.posts.delete("post_does_not_exist")).rejects.toBeInstanceOf(NotFoundError);
    });
  });
}
