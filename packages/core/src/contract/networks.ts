import { z } from "zod";

/** The twelve network ids, in the contract's order (also the order of GET /accounts). */
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

export const NetworkId = z.enum(NETWORK_IDS).meta({ id: "NetworkId", description: "A network id." });
export type NetworkId = z.infer<typeof NetworkId>;

/**
 * How a network measures text length. "characters" counts Unicode code points (what most networks
 * document as characters); "graphemes" counts user-perceived characters (Bluesky's rule); "weighted"
 * is X's rule (most scripts other than Latin count 2, an emoji 2, a URL 23: see text/x-weight.ts).
 */
export type LengthUnit = "characters" | "graphemes" | "weighted";

export interface NetworkRule {
  readonly id: NetworkId;
  /** Display name. */
  readonly name: string;
  /** True when the network cannot publish text alone. */
  readonly needsMedia: boolean;
  /** True when the network's media must be a video: an image is refused as a post is made (YouTube). */
  readonly needsVideo: boolean;
  /** Longest text the network accepts. */
  readonly textLimit: number;
  /** Longest text when media is attached, where the network has a different limit. */
  readonly textLimitWithMedia?: number;
  readonly lengthUnit: LengthUnit;
}

const rule = (
  id: NetworkId,
  name: string,
  textLimit: number,
  extra: Partial<Pick<NetworkRule, "needsMedia" | "needsVideo" | "textLimitWithMedia" | "lengthUnit">> = {},
): NetworkRule => ({
  id,
  name,
  textLimit,
  needsMedia: false,
  needsVideo: false,
  lengthUnit: "characters",
  ...extra,
});

export const NETWORK_RULES: Readonly<Record<NetworkId, NetworkRule>> = {
  tiktok: rule("tiktok", "TikTok", 2200, { needsMedia: true }),
  instagram: rule("instagram", "Instagram", 2200, { needsMedia: true }),
  youtube: rule("youtube", "YouTube", 5000, { needsMedia: true, needsVideo: true }),
  x: rule("x", "X", 280, { lengthUnit: "weighted" }),
  linkedin: rule("linkedin", "LinkedIn", 3000),
  facebook: rule("facebook", "Facebook", 63206),
  threads: rule("threads", "Threads", 500),
  pinterest: rule("pinterest", "Pinterest", 500, { needsMedia: true }),
  reddit: rule("reddit", "Reddit", 40000),
  bluesky: rule("bluesky", "Bluesky", 300, { lengthUnit: "graphemes" }),
  discord: rule("discord", "Discord", 2000),
  telegram: rule("telegram", "Telegram", 4096, { textLimitWithMedia: 1024 }),
};

/** Networks that refuse a post without media. */
export const MEDIA_REQUIRED_NETWORKS: readonly NetworkId[] = NETWORK_IDS.filter(
  (id) => NETWORK_RULES[id].needsMedia,
);

/** Networks whose media must be a video. */
export const VIDEO_REQUIRED_NETWORKS: readonly NetworkId[] = NETWORK_IDS.filter(
  (id) => NETWORK_RULES[id].needsVideo,
);

export function isNetworkId(value: unknown): value is NetworkId {
  return typeof value === "string" && (NETWORK_IDS as readonly string[]).includes(value);
}

/** The text limit that applies to a post on a network, given whether it carries media. */
export function textLimitFor(id: NetworkId, hasMedia: boolean): number {
  const r = NETWORK_RULES[id];
  return hasMedia && r.textLimitWithMedia !== undefined ? r.textLimitWithMedia : r.textLimit;
}
