import { type NetworkId, Post, SocialPublishClient, type Target } from "@socialpub/core";

export interface NewPost {
  caption: string;
  /** A network's own text instead of `caption` (the API's `captions`). */
  captions?: Partial<Record<NetworkId, string>>;
  platforms: NetworkId[];
  media?: string;
  schedule_at?: string;
}

export interface CreatedPost {
  post: Post;
  /** True when the service answered from an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  requestId: string | null;
}

/** The calls the action makes to the social publishing service. */
export interface Publisher {
  connectedPlatforms(): Promise<NetworkId[]>;
  createPost(post: NewPost, idempotencyKey: string): Promise<CreatedPost>;
  targets(postId: string): Promise<Target[]>;
  close(): Promise<void>;
}

export function createPublisher(apiKey: string, baseUrl: string): Publisher {
  const client = new SocialPublishClient({ apiKey, baseUrl });
  return {
    async connectedPlatforms() {
      const { data } = await client.accounts.list();
      return data.map((account) => account.platform);
    },
    async createPost(post, idempotencyKey) {
      // Through `request` rather than `posts.create` to see the Idempotent-Replayed header.
      const response = await client.request({
        method: "POST",
        path: "/posts",
        json: post,
        schema: Post,
        options: { idempotencyKey },
      });
      return {
        post: response.data,
        replayed: response.headers.get("idempotent-replayed") === "true",
        requestId: response.requestId,
      };
    },
    async targets(postId) {
      return (await client.posts.targets(postId)).data;
    },
    close: () => client.close(),
  };
}
