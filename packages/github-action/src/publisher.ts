import { type MediaItem, type NetworkId, Post, SocialPublishClient, type Target } from "@socialpub/core";
import type { DirectPublisher } from "./direct/publisher.ts";

export interface NewPost {
  caption: string;
  /** A network's own text instead of `caption` (the API's `captions`). */
  captions?: Partial<Record<NetworkId, string>>;
  platforms: NetworkId[];
  /** One URL or med_ id, or a list of items with alt text (the API's `media`). */
  media?: string | MediaItem[];
  /** "thread": a text longer than a threading network takes is split into a thread. */
  split?: "thread";
  first_comment?: string;
  schedule_at?: string;
}

export interface CreatedPost {
  post: Post;
  /** True when the service answered from an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  requestId: string | null;
}

/** The calls the action makes to the social publishing service. */
export interface ServicePublisher {
  readonly kind: "service";
  connectedPlatforms(): Promise<NetworkId[]>;
  createPost(post: NewPost, idempotencyKey: string): Promise<CreatedPost>;
  targets(postId: string): Promise<Target[]>;
  close(): Promise<void>;
}

/** Where the announcement goes: a service (base-url), or the networks directly. */
export type Publisher = ServicePublisher | DirectPublisher;

export function createPublisher(apiKey: string, baseUrl: string): ServicePublisher {
  const client = new SocialPublishClient({ apiKey, baseUrl });
  return {
    kind: "service",
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
