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

/** Display name of each network, whether it refuses a post without media, and whether its media must be a video. */
export const NETWORKS: ReadonlyArray<{ id: NetworkId; name: string; needsMedia: boolean; needsVideo: boolean }> = [
  { id: "tiktok", name: "TikTok", needsMedia: true, needsVideo: false },
  { id: "instagram", name: "Instagram", needsMedia: true, needsVideo: false },
  { id: "youtube", name: "YouTube", needsMedia: true, needsVideo: true },
  { id: "x", name: "X", needsMedia: false, needsVideo: false },
  { id: "linkedin", name: "LinkedIn", needsMedia: false, needsVideo: false },
  { id: "facebook", name: "Facebook", needsMedia: false, needsVideo: false },
  { id: "threads", name: "Threads", needsMedia: false, needsVideo: false },
  { id: "pinterest", name: "Pinterest", needsMedia: true, needsVideo: false },
  { id: "reddit", name: "Reddit", needsMedia: false, needsVideo: false },
  { id: "bluesky", name: "Bluesky", needsMedia: false, needsVideo: false },
  { id: "discord", name: "Discord", needsMedia: false, needsVideo: false },
  { id: "telegram", name: "Telegram", needsMedia: false, needsVideo: false },
];

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
