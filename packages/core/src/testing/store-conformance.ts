import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NetworkId } from "../contract/networks.ts";
import { newId } from "../ids.ts";
import type { PostRecord, Store, TargetRecord, UserRecord } from "../store/types.ts";

export type MakeStore = () => Store | Promise<Store>;

const T0 = Date.UTC(2026, 5, 15, 12, 0, 0);

/**
 * The Store conformance suite: the atomic steps the service relies on, checked against the interface
 * alone so every store (memory, SQLite, Postgres) passes the same tests.
 */
export function describeStoreConformance(label: string, makeStore: MakeStore): void {
  describe(`store conformance: ${label}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    const user = async (): Promise<UserRecord> => {
      const id = newId("usr", T0);
      const record: UserRecord = {
        id,
        email: `${id}@example.com`,
        name: "Test",
        studio: "Test",
        plan: "creator",
        created_at: T0,
      };
      await store.createUser(record);
      return record;
    };

    const post = (userId: string, fields: Partial<PostRecord> = {}): PostRecord => ({
      id: newId("post", T0),
      user_id: userId,
      caption: "hello",
      platforms: ["x"],
      status: "scheduled",
      media: null,
      scheduled_at: T0 + 60_000,
      published_at: null,
      created_at: T0,
      ...fields,
    });

    const target = (postId: string, platform: NetworkId = "x"): TargetRecord => ({
      post_id: postId,
      platform,
      status: "pending",
      text: "hello",
      permalink: null,
      error: null,
      published_at: null,
      reach: 0,
      likes: 0,
      comments: 0,
      shares: 0,
    });

    it("claimDuePosts moves due scheduled posts to publishing, oldest due first, and never hands one out twice", async () => {
      const u = await user();
      const late = post(u.id, { scheduled_at: T0 + 2000 });
      const early = post(u.id, { scheduled_at: T0 + 1000 });
      const future = post(u.id, { scheduled_at: T0 + 10_000 });
      for (const p of [late, early, future]) await store.insertPost(p, [target(p.id)]);
      const [a, b] = await Promise.all([
        store.claimDuePosts(T0 + 5000, 10),
        store.claimDuePosts(T0 + 5000, 10),
      ]);
      const claimed = [...a!, ...b!];
      expect(claimed.map((p) => p.id)).toEqual([early.id, late.id]);
      expect(claimed.every((p) => p.status === "publishing")).toBe(true);
      expect((await store.getPost(u.id, early.id))!.status).toBe("publishing");
      expect((await store.getPost(u.id, future.id))!.status).toBe("scheduled");
      expect(await store.claimDuePosts(T0 + 5000, 10)).toEqual([]);
    });
  });
}
