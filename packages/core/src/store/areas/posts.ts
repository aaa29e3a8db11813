import type { NetworkId } from "../../contract/networks.ts";
import type { PostStatus } from "../../contract/resources.ts";
import type { NetworkOptions, Poll } from "../../contract/rich.ts";
import type { Effects } from "./effects.ts";
import type { KeyMode } from "./keys.ts";
import type { TargetMetrics, TargetRecord } from "./targets.ts";

export interface PostRecord {
  id: string;
  user_id: string;
  /** The mode of the key that made it: a live post publishes through the live adapters, always. */
  mode: KeyMode;
  caption: string;
  platforms: NetworkId[];
  status: PostStatus;
  /** The media reference as given: an http(s) URL or a med_ id; null without media. */
  media: string | null;
  /**
   * Text per network (`captions`): the override of each targeted network that has one, as sent.
   * Absent when there is none (a store hands back no empty object).
   */
  captions?: Partial<Record<NetworkId, string>>;
  /**
   * What a rich post adds (decisions.md "Rich posts"): the media list with alt text, the thread's
   * further parts, the first comment, the poll, the per-network options and `split`. Absent when the
   * post uses none of them (a store hands back no empty object). `media` above stays the first item's
   * reference, so what reads only it (has_media, the one-media publish) is unchanged.
   */
  rich?: RichContent;
  scheduled_at: number | null;
  published_at: number | null;
  created_at: number;
}

/** One media item as stored: the URL or med_ id as given, and its alt text. */
export interface MediaRef {
  ref: string;
  alt?: string;
}

/** A thread's further part as stored: its text (and texts per network) and media. */
export interface PartContent {
  caption: string;
  captions?: Partial<Record<NetworkId, string>>;
  media?: MediaRef[];
}

export interface RichContent {
  /** Every media item in order, when there is more than one or any has alt text. */
  media?: MediaRef[];
  thread?: PartContent[];
  first_comment?: string;
  poll?: Poll;
  options?: NetworkOptions;
  split?: "thread";
}

/** What transitionPost may change: the status and times, and what an edit changes. */
export type PostPatch = Partial<
  Pick<
    PostRecord,
    "status" | "scheduled_at" | "published_at" | "caption" | "captions" | "platforms" | "media" | "rich"
  >
>;

export interface ListPostsOptions {
  statuses?: PostStatus[];
  limit: number;
  /** Return posts strictly older (smaller id) than this id: ids are time-sortable. */
  beforeId?: string;
}

/**
 * Posts: their records and targets as written together, the edits and status changes made to them
 * (compare-and-set), and the scheduler's claims of due posts.
 */
export interface PostStore {
  insertPost(post: PostRecord, targets: TargetRecord[], effects?: Effects): Promise<void>;
  getPost(userId: string, id: string): Promise<PostRecord | null>;
  /** Most recent first (descending id). */
  listPosts(userId: string, options: ListPostsOptions): Promise<PostRecord[]>;
  /**
   * Posts the user created at or after `since` (plan limit: posts per month), deleted ones included:
   * deleting a post does not give back its place in the month's allowance.
   */
  countPostsCreatedSince(userId: string, since: number): Promise<number>;
  getTargets(postId: string): Promise<TargetRecord[]>;
  /**
   * Each post's metrics summed over its targets, by post id (a post without targets is absent): what a
   * list of posts shows, read in one step instead of one getTargets per post.
   */
  sumTargetMetrics(postIds: readonly string[]): Promise<Map<string, TargetMetrics>>;
  /**
   * Removes the post and its targets if it belongs to the user. `effectsFor` is called with the record
   * as it was inside the transaction, so the event names the status the post really had.
   */
  deletePost(
    userId: string,
    id: string,
    effectsFor?: (post: PostRecord) => Effects,
  ): Promise<PostRecord | null>;
  /**
   * Compare-and-set: applies `patch` (and replaces the targets when given) only when the post exists and
   * its status is one of `from`. Returns the updated record, or null when the condition failed.
   * Publishing completes through this (`from: ["publishing"]`), so a post deleted meanwhile stays deleted;
   * an edit goes through it too (`from` the status it read, draft or scheduled), so an edit racing the
   * scheduler either lands before the claim or is refused, never half. `patch.captions` replaces the
   * overrides (`{}` removes them); `patch.rich` replaces the whole rich content (`{}` removes it).
   * `effects` may be a function of the updated record (to answer with the post as it was written); it
   * is called, and its effects written, only when the transition is applied.
   */
  transitionPost(
    id: string,
    from: PostStatus[],
    patch: PostPatch,
    targets?: TargetRecord[],
    effects?: Effects | ((post: PostRecord) => Effects),
  ): Promise<PostRecord | null>;
  /**
   * Atomically moves up to `limit` scheduled posts due at or before `now` to publishing, oldest due first.
   * A shared store leases each claim: a post still publishing when its lease runs out (its instance
   * died) is claimed again by a later call, so another instance completes it.
   */
  claimDuePosts(now: number, limit: number): Promise<PostRecord[]>;
  /** The earliest scheduled_at among scheduled posts (on a shared store, or lease end of a claim), or null. */
  nextDueAt(): Promise<number | null>;
  /**
   * After a crash: posts left in publishing go back to scheduled so they publish (once) again. A post
   * that was being published at once (scheduled_at null) gets its created_at as due time, so it
   * publishes right away. Returns how many posts were released. A shared store releases nothing and
   * answers 0: its leases hand interrupted claims over instead.
   */
  releaseInterruptedPublishing(): Promise<number>;
}
