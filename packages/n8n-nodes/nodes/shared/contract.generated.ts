// Generated from @socialpub/core by scripts/generate-contract.mts. Do not edit by hand:
// run `pnpm --filter n8n-nodes-socialpub generate` after changing the contract.

/** The network ids, in the contract's order. */
export const NETWORK_IDS = [
  "tiktok",
  "instagram",
  "youtube",
  "x",
  "linkedin",
  "facebook",
  "threads",
  "pinterest",
  "reddit",
  "bluesky",
  "discord",
  "telegram",
] as const;

export type NetworkId = (typeof NETWORK_IDS)[number];

/**
 * Display name of each network, whether it refuses a post without media, whether its media must be a
 * video, how a thread's parts go out there, and whether it takes a first comment and a poll.
 */
export const NETWORKS: ReadonlyArray<{
  id: NetworkId;
  name: string;
  needsMedia: boolean;
  needsVideo: boolean;
  threads: "replies" | "messages" | "joined";
  firstComment: boolean;
  poll: boolean;
}> = [
  { id: "tiktok", name: "TikTok", needsMedia: true, needsVideo: false, threads: "joined", firstComment: false, poll: false },
  { id: "instagram", name: "Instagram", needsMedia: true, needsVideo: false, threads: "joined", firstComment: true, poll: false },
  { id: "youtube", name: "YouTube", needsMedia: true, needsVideo: true, threads: "joined", firstComment: true, poll: false },
  { id: "x", name: "X", needsMedia: false, needsVideo: false, threads: "replies", firstComment: true, poll: true },
  { id: "linkedin", name: "LinkedIn", needsMedia: false, needsVideo: false, threads: "joined", firstComment: true, poll: false },
  { id: "facebook", name: "Facebook", needsMedia: false, needsVideo: false, threads: "joined", firstComment: true, poll: false },
  { id: "threads", name: "Threads", needsMedia: false, needsVideo: false, threads: "replies", firstComment: true, poll: true },
  { id: "pinterest", name: "Pinterest", needsMedia: true, needsVideo: false, threads: "joined", firstComment: false, poll: false },
  { id: "reddit", name: "Reddit", needsMedia: false, needsVideo: false, threads: "joined", firstComment: true, poll: false },
  { id: "bluesky", name: "Bluesky", needsMedia: false, needsVideo: false, threads: "replies", firstComment: true, poll: false },
  { id: "discord", name: "Discord", needsMedia: false, needsVideo: false, threads: "messages", firstComment: true, poll: true },
  { id: "telegram", name: "Telegram", needsMedia: false, needsVideo: false, threads: "messages", firstComment: true, poll: true },
];

/** The bounds of a rich post's fields (a media list, its alt texts, a thread, a first comment). */
export const RICH_LIMITS = { maxMediaItems: 20, maxAltLength: 1000, maxThreadParts: 24, maxFirstCommentLength: 10000 } as const;

/** Webhook event types. */
export const EVENT_TYPES = [
  "post.published",
  "post.scheduled",
  "post.failed",
  "post.deleted",
  "account.connected",
  "account.disconnected",
  "media.processed",
  "analytics.daily",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Post statuses. */
export const POST_STATUSES = [
  "draft",
  "scheduled",
  "publishing",
  "published",
] as const;

export type PostStatus = (typeof POST_STATUSES)[number];
