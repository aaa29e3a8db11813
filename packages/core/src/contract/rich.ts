import { z } from "zod";
import { NetworkId } from "./networks.ts";

/*
 * Rich posts (extensions, decisions.md "Rich posts"): several media with alt text, threads, a first
 * comment, a poll and per-network options. Every field is optional: a request without them behaves as
 * the contract says. What each network carries of them is its rule's `carries` (networks.ts).
 */

/** The longest alt text of one media item, in characters. */
export const MAX_ALT_LENGTH = 1000;
/** The most media items a post (or one thread part) may list. */
export const MAX_MEDIA_ITEMS = 20;
/** The most further parts a thread may have (the post itself is the first). */
export const MAX_THREAD_PARTS = 24;
/** The longest first comment the API accepts; each network's own limit applies after it. */
export const MAX_FIRST_COMMENT_LENGTH = 10_000;

const Alt = z
  .string()
  .max(MAX_ALT_LENGTH)
  .describe(`alt text: what the image shows, for people who cannot see it (at most ${MAX_ALT_LENGTH})`);

/** One media item: a URL or med_ id, or an object naming one with its alt text. */
export const MediaItem = z
  .union([
    z.string().describe("an http(s) URL of an image or video, or a med_ id from POST /media"),
    z.strictObject({ url: z.string().describe("an http(s) URL of an image or video"), alt: Alt.optional() }),
    z.strictObject({ id: z.string().describe("a med_ id from POST /media"), alt: Alt.optional() }),
  ])
  .meta({ id: "MediaItem" });
export type MediaItem = z.infer<typeof MediaItem>;

/** `media` of a post or a thread part: one item, or a list of 1–20 in the order they appear. */
export const MediaList = z.array(MediaItem).min(1).max(MAX_MEDIA_ITEMS).meta({ id: "MediaList" });

/** One further part of a thread: the same rules as the post itself, no nesting, not empty. */
export const ThreadPart = z
  .strictObject({
    caption: z.string().max(100_000).optional(),
    captions: z.partialRecord(NetworkId, z.string().max(100_000)).optional(),
    media: z.union([z.string(), MediaList]).optional(),
  })
  .meta({ id: "ThreadPart" });
export type ThreadPart = z.infer<typeof ThreadPart>;

export const Thread = z
  .array(ThreadPart)
  .min(1)
  .max(MAX_THREAD_PARTS)
  .describe(
    `extension: 1 to ${MAX_THREAD_PARTS} further parts, each published as a reply to the one before where the network threads; joined to the text elsewhere`,
  )
  .meta({ id: "Thread" });

export const Split = z
  .enum(["shorten", "thread"])
  .describe(
    'extension: "thread" splits a text longer than a threading network\'s limit into numbered parts instead of shortening it (default "shorten")',
  )
  .meta({ id: "Split" });
export type Split = z.infer<typeof Split>;

export const FirstComment = z
  .string()
  .min(1)
  .max(MAX_FIRST_COMMENT_LENGTH)
  .describe("extension: a text the same account adds as the first comment (or reply) to the published post");

export const Poll = z
  .strictObject({
    options: z.array(z.string().min(1).max(100)).min(2).max(4).describe("2 to 4 choices, in order"),
    duration_minutes: z.number().int().min(1).max(46_080).describe("how long the poll stays open"),
  })
  .describe("extension: a poll, where the network's API takes one (each network's bounds in its rules)")
  .meta({ id: "Poll" });
export type Poll = z.infer<typeof Poll>;

/*
 * Per-network options, each checked by its network's schema (an unknown key is refused). Where a
 * network derives a value today (reddit's title from the first line), the option overrides it.
 */
const flag = z.boolean();
export const NETWORK_OPTION_SCHEMAS = {
  youtube: z.strictObject({
    title: z.string().min(1).max(100).optional(),
    privacy: z.enum(["public", "unlisted", "private"]).optional(),
    tags: z.array(z.string().min(1).max(100)).max(100).optional(),
    category_id: z.string().regex(/^\d+$/, "category_id is a YouTube video category id (digits)").optional(),
    made_for_kids: flag.optional(),
  }),
  tiktok: z.strictObject({
    privacy_level: z
      .enum(["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"])
      .optional(),
    disable_comment: flag.optional(),
    disable_duet: flag.optional(),
    disable_stitch: flag.optional(),
  }),
  reddit: z.strictObject({
    title: z.string().min(1).max(300).optional(),
    subreddit: z
      .string()
      .regex(/^(r\/)?[A-Za-z0-9_]{2,21}$/, "subreddit is a name like socialpub or r/socialpub")
      .optional(),
    flair_id: z.string().min(1).max(100).optional(),
    nsfw: flag.optional(),
    spoiler: flag.optional(),
  }),
  pinterest: z.strictObject({
    board_id: z.string().min(1).max(100).optional(),
    title: z.string().min(1).max(100).optional(),
    link: z.string().max(2048).optional(),
  }),
  linkedin: z.strictObject({ visibility: z.enum(["PUBLIC", "CONNECTIONS"]).optional() }),
  x: z.strictObject({
    reply_settings: z.enum(["following", "mentionedUsers", "subscribers", "verified"]).optional(),
  }),
  telegram: z.strictObject({ silent: flag.optional(), protect_content: flag.optional() }),
  discord: z.strictObject({
    username: z.string().min(1).max(80).optional(),
    thread_name: z.string().min(1).max(100).optional(),
  }),
} as const satisfies Partial<Record<NetworkId, z.ZodType>>;

export type OptionsNetwork = keyof typeof NETWORK_OPTION_SCHEMAS;
export const NetworkOptions = z
  .strictObject({
    youtube: NETWORK_OPTION_SCHEMAS.youtube.optional(),
    tiktok: NETWORK_OPTION_SCHEMAS.tiktok.optional(),
    reddit: NETWORK_OPTION_SCHEMAS.reddit.optional(),
    pinterest: NETWORK_OPTION_SCHEMAS.pinterest.optional(),
    linkedin: NETWORK_OPTION_SCHEMAS.linkedin.optional(),
    x: NETWORK_OPTION_SCHEMAS.x.optional(),
    telegram: NETWORK_OPTION_SCHEMAS.telegram.optional(),
    discord: NETWORK_OPTION_SCHEMAS.discord.optional(),
  })
  .describe("extension: network id → that network's options, each checked by its schema")
  .meta({ id: "NetworkOptions" });
export type NetworkOptions = z.infer<typeof NetworkOptions>;

/** The rich fields a post (POST /posts, POST /schedule, PATCH /posts/{id}, validate) may carry. */
export const RICH_FIELDS = {
  thread: Thread.optional(),
  split: Split.optional(),
  first_comment: FirstComment.optional(),
  poll: Poll.optional(),
  options: NetworkOptions.optional(),
};

/** One media item as read back (GET /posts/{id}/content): where it is, its type, its alt text. */
export const ContentMedia = z
  .object({
    url: z.string(),
    type: z.string().nullable().describe("MIME type; null when it cannot be told before publishing"),
    alt: z.string().nullable(),
  })
  .meta({ id: "ContentMedia" });
export type ContentMedia = z.infer<typeof ContentMedia>;

/** GET /posts/{id}/content (extension): the whole content as sent. */
export const PostContentView = z
  .object({
    caption: z.string(),
    captions: z.partialRecord(NetworkId, z.string()),
    media: z.array(ContentMedia),
    thread: z.array(
      z.object({
        caption: z.string(),
        captions: z.partialRecord(NetworkId, z.string()),
        media: z.array(ContentMedia),
      }),
    ),
    first_comment: z.string().nullable(),
    poll: Poll.nullable(),
    options: NetworkOptions,
    split: Split,
  })
  .meta({ id: "PostContent" });
export type PostContentView = z.infer<typeof PostContentView>;

export const PART_STATUSES = ["pending", "published", "failed"] as const;

/** One message of a target as it published (GET /posts/{id}/targets `parts`). */
export const TargetPart = z
  .object({
    text: z.string(),
    status: z.enum(PART_STATUSES),
    permalink: z.string().nullable(),
  })
  .meta({ id: "TargetPart" });
export type TargetPart = z.infer<typeof TargetPart>;

export const FIRST_COMMENT_STATUSES = ["pending", "published", "failed", "not_carried"] as const;
/** What became of a target's first comment (GET /posts/{id}/targets `first_comment`). */
export const FirstCommentOutcome = z
  .object({
    status: z.enum(FIRST_COMMENT_STATUSES),
    permalink: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: "FirstCommentOutcome" });
export type FirstCommentOutcome = z.infer<typeof FirstCommentOutcome>;
