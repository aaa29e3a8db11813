import { type NetworkId, NOT_ATTEMPTED, newId, provisionUser } from "@socialpub/core";
import { openSqliteStore } from "../../../server/src/index.ts";

export interface LargeAccount {
  /** Post ids, newest first: the order the list shows them in. */
  postIds: string[];
  /** What GET /analytics must answer for the account. */
  totalReach: number;
}

const NETWORKS: readonly NetworkId[] = ["x", "bluesky", "linkedin"];

/**
 * A studio-plan user with `key` and `count` published posts (one a second, ending now, on three
 * networks with reported reach), written straight through the SQLite store before the server opens
 * the database: going through the API would spend most of the test creating posts.
 */
export async function seedLargeAccount(dbPath: string, key: string, count: number): Promise<LargeAccount> {
  const store = openSqliteStore(dbPath);
  try {
    const { user } = await provisionUser(store, {
      plan: "studio",
      name: "Large Account",
      studio: "Busy Studio",
      accounts: NETWORKS,
      key,
    });
    const start = Date.now() - count * 1000;
    const postIds: string[] = [];
    let totalReach = 0;
    for (let i = 0; i < count; i++) {
      const at = start + i * 1000;
      const id = newId("post", at);
      const caption = `Post number ${i + 1} of ${count}`;
      await store.insertPost(
        {
          id,
          user_id: user.id,
          mode: "test",
          caption,
          platforms: [...NETWORKS],
          status: "published",
          media: null,
          scheduled_at: null,
          published_at: at,
          created_at: at,
        },
        NETWORKS.map((platform, position) => {
          const reach = 10 + ((i + position) % 7);
          totalReach += reach;
          return {
            post_id: id,
            platform,
            status: "published" as const,
            text: caption,
            permalink: `https://example.com/${platform}/${id}`,
            error: null,
            published_at: at,
            reach,
            likes: 1,
            comments: 0,
            shares: 0,
            ...NOT_ATTEMPTED,
          };
        }),
      );
      postIds.push(id);
    }
    return { postIds: postIds.reverse(), totalReach };
  } finally {
    await store.close();
  }
}
