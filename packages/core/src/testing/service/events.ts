import { describe, expect, it } from "vitest";
import { WebhookEvent } from "../../contract/events.ts";
import type { NewEvent } from "../../store/types.ts";
import type { Harness } from "./harness.ts";

const envelope = (e: NewEvent) => ({ id: e.id, type: e.type, created: e.created, data: e.data });

export function eventTests(h: Harness): void {
  describe("events written to the outbox", () => {
    it("publishing writes one post.published per network: {post_id, platform, status, permalink, metrics: {reach, likes}}", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Out", platforms: ["x", "bluesky"] });
      const events = await h.store.listEvents(user.id);
      const targets = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect(events.map((e) => WebhookEvent.parse(envelope(e)))).toEqual(
        targets.map((t: { platform: string; permalink: string }) => ({
          id: expect.stringMatching(/^evt_[0-9A-Z]{26}$/),
          type: "post.published",
          created: Math.floor(h.clock.now() / 1000),
          data: {
            post_id: post.id,
            platform: t.platform,
            status: "published",
            permalink: t.permalink,
            metrics: { reach: 0, likes: 0 },
          },
        })),
      );
    });

    it("created is Unix seconds while the post's times are milliseconds", async () => {
      const user = await h.user();
      await h.clock.advance(1234);
      const post = await user.createPost({ caption: "Units", platforms: ["x"] });
      const [event] = await h.store.listEvents(user.id);
      expect(event!.created).toBe(Math.floor(post.published_at / 1000));
      expect(post.published_at % 1000).not.toBe(0);
    });

    it("a failed network writes post.failed: {post_id, platform, status: failed, error}", async () => {
      const user = await h.user({ accounts: ["x", { platform: "bluesky", health: "reauth_required" }] });
      const post = await user.createPost({ caption: "Half", platforms: ["x", "bluesky"] });
      const events = (await h.store.listEvents(user.id)).map((e) => WebhookEvent.parse(envelope(e)));
      const failed = events.filter((e) => e.type === "post.failed");
      const bluesky = (await user.get(`/posts/${post.id}/targets`)).body.data[1];
      expect(failed.map((e) => e.data)).toEqual([
        { post_id: post.id, platform: "bluesky", status: "failed", error: bluesky.error },
      ]);
      expect(events.filter((e) => e.type === "post.published")).toHaveLength(1);
    });

    it("scheduling writes post.scheduled: {post_id, platforms, scheduled_at in ms}", async () => {
      const user = await h.user();
      const at = h.clock.now() + 3_600_000;
      const post = await user.createPost({ caption: "Later", platforms: ["bluesky", "x"], schedule_at: at });
      const events = (await h.store.listEvents(user.id)).map((e) => WebhookEvent.parse(envelope(e)));
      expect(events.map((e) => [e.type, e.data])).toEqual([
        ["post.scheduled", { post_id: post.id, platforms: ["bluesky", "x"], scheduled_at: at }],
      ]);
    });

    it("a draft writes no event", async () => {
      const user = await h.user();
      await user.createPost({ caption: "Quiet", platforms: ["x"], draft: true });
      expect(await h.store.listEvents(user.id)).toEqual([]);
    });

    it("events are the user's own", async () => {
      const alice = await h.user();
      const bob = await h.user();
      await alice.createPost({ caption: "Mine", platforms: ["x"] });
      expect(await h.store.listEvents(bob.id)).toEqual([]);
    });
  });
}
