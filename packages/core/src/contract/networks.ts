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
  /** What of a rich post the network carries (decisions.md "Rich posts"), from its own documentation. */
  readonly carries: Carries;
}

/**
 * What a network's API takes of a rich post. The sandbox refuses exactly where this says the network
 * would, and the live adapter carries what it says; docs/networks.md says the same in words.
 */
export interface Carries {
  media: {
    /** Most images in one post (a carousel, an album, a gallery, a photo post). 0: none. */
    maxImages: number;
    /** Most videos in one post. */
    maxVideos: number;
    /** Fewest items when there is more than one (a Pinterest carousel takes 2–5). */
    minItemsWhenSeveral: number;
    /** Most items of any kind together. */
    maxItems: number;
    /** Whether images and videos may be mixed in one post. */
    mixed: boolean;
  };
  /** Whether the network takes alt text for images. */
  alt: boolean;
  /** How a thread's parts go out: as replies to the part before, as consecutive messages, or joined. */
  threads: "replies" | "messages" | "joined";
  /** Whether the account can add a first comment (or reply) through the API. */
  firstComment: boolean;
  /** The network's poll bounds; null when its API takes no poll. */
  poll: PollRule | null;
}

export interface PollRule {
  maxOptions: number;
  /** Longest option text, in characters. */
  optionMaxLength: number;
  /** Whether a poll may go with media. */
  withMedia: boolean;
  /** Shortest and longest duration the network takes, in minutes. */
  minMinutes: number;
  maxMinutes: number;
  /**
   * A duration outside the bounds: refused (400 naming the network), or carried as the network does
   * (Threads polls run 24 hours; a Telegram poll longer than its 10-minute open_period stays open),
   * with a note on the target.
   */
  outside: "refused" | "noted";
}

const media = (
  maxImages: number,
  maxVideos: number,
  extra: Partial<Carries["media"]> = {},
): Carries["media"] => ({
  maxImages,
  maxVideos,
  minItemsWhenSeveral: 2,
  maxItems: Math.max(maxImages, maxVideos),
  mixed: false,
  ...extra,
});
const carries = (c: Partial<Carries> & Pick<Carries, "media">): Carries => ({
  alt: false,
  threads: "joined",
  firstComment: false,
  poll: null,
  ...c,
});

const rule = (
  id: NetworkId,
  name: string,
  textLimit: number,
  carries: Carries,
  extra: Partial<Pick<NetworkRule, "needsMedia" | "needsVideo" | "textLimitWithMedia" | "lengthUnit">> = {},
): NetworkRule => ({
  carries,
  id,
  name,
  textLimit,
  needsMedia: false,
  needsVideo: false,
  lengthUnit: "characters",
  ...extra,
});

export const NETWORK_RULES: Readonly<Record<NetworkId, NetworkRule>> = {
  // Photo posts take 1–35 images; a video post one video (Content Posting API).
  tiktok: rule("tiktok", "TikTok", 2200, carries({ media: media(35, 1, { minItemsWhenSeveral: 1 }) }), {
    needsMedia: true,
  }),
  // A carousel: 2–10 images and videos; alt_text on image containers; comments on the media.
  instagram: rule(
    "instagram",
    "Instagram",
    2200,
    carries({ media: media(10, 10, { maxItems: 10, mixed: true }), alt: true, firstComment: true }),
    { needsMedia: true },
  ),
  youtube: rule("youtube", "YouTube", 5000, carries({ media: media(0, 1), firstComment: true }), {
    needsMedia: true,
    needsVideo: true,
  }),
  x: rule(
    "x",
    "X",
    280,
    carries({
      media: media(4, 1),
      alt: true,
      threads: "replies",
      firstComment: true,
      poll: {
        maxOptions: 4,
        optionMaxLength: 25,
        withMedia: false,
        minMinutes: 5,
        maxMinutes: 10_080,
        outside: "refused",
      },
    }),
    { lengthUnit: "weighted" },
  ),
  linkedin: rule(
    "linkedin",
    "LinkedIn",
    3000,
    carries({ media: media(20, 1), alt: true, firstComment: true }),
  ),
  facebook: rule(
    "facebook",
    "Facebook",
    63206,
    carries({ media: media(10, 1), alt: true, firstComment: true }),
  ),
  threads: rule(
    "threads",
    "Threads",
    500,
    carries({
      media: media(20, 20, { maxItems: 20, mixed: true }),
      alt: true,
      threads: "replies",
      firstComment: true,
      poll: {
        maxOptions: 4,
        optionMaxLength: 25,
        withMedia: false,
        minMinutes: 1440,
        maxMinutes: 1440,
        outside: "noted",
      },
    }),
  ),
  // A carousel pin takes 2–5 images.
  pinterest: rule("pinterest", "Pinterest", 500, carries({ media: media(5, 1), alt: true }), {
    needsMedia: true,
  }),
  reddit: rule("reddit", "Reddit", 40000, carries({ media: media(20, 1), firstComment: true })),
  bluesky: rule(
    "bluesky",
    "Bluesky",
    300,
    carries({ media: media(4, 1), alt: true, threads: "replies", firstComment: true }),
    { lengthUnit: "graphemes" },
  ),
  // Up to 10 files on a message, each with a description (alt text); polls of up to 10 answers.
  discord: rule(
    "discord",
    "Discord",
    2000,
    carries({
      media: media(10, 10, { maxItems: 10, mixed: true, minItemsWhenSeveral: 1 }),
      alt: true,
      threads: "messages",
      firstComment: true,
      poll: {
        maxOptions: 10,
        optionMaxLength: 55,
        withMedia: true,
        minMinutes: 60,
        maxMinutes: 768 * 60,
        outside: "refused",
      },
    }),
  ),
  // An album (sendMediaGroup) takes 2–10 photos and videos; a poll is its own message (sendPoll) of
  // 1–12 options of up to 100 characters, open for 5 to 2,628,000 seconds (open_period); a longer poll
  // is sent without one and stays open.
  telegram: rule(
    "telegram",
    "Telegram",
    4096,
    carries({
      media: media(10, 10, { maxItems: 10, mixed: true }),
      threads: "messages",
      firstComment: true,
      poll: {
        maxOptions: 12,
        optionMaxLength: 100,
        withMedia: false,
        minMinutes: 1,
        maxMinutes: 43_800,
        outside: "noted",
      },
    }),
    { textLimitWithMedia: 1024 },
  ),
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
