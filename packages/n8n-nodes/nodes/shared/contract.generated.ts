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

/** Display name of each network, and whether it refuses a post without media. */
export const NETWORKS: ReadonlyArray<{ id: NetworkId; name: string; needsMedia: boolean }> = [
  { id: "tiktok", name: "TikTok", needsMedia: true },
  { id: "instagram", name: "Instagram", needsMedia: true },
  { id: "youtube", name: "YouTube", needsMedia: true },
  { id: "x", name: "X", needsMedia: false },
  { id: "linkedin", name: "LinkedIn", needsMedia: false },
  { id: "facebook", name: "Facebook", needsMedia: false },
  { id: "threads", name: "Threads", needsMedia: false },
  { id: "pinterest", name: "Pinterest", needsMedia: true },
  { id: "reddit", name: "Reddit", needsMedia: false },
  { id: "bluesky", name: "Bluesky", needsMedia: false },
  { id: "discord", name: "Discord", needsMedia: false },
  { id: "telegram", name: "Telegram", needsMedia: false },
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
