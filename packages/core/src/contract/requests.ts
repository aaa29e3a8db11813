import { z } from "zod";
import { EventType, WEBHOOK_STATUSES } from "./events.ts";
import { MEDIA_REQUIRED_NETWORKS, NetworkId, VIDEO_REQUIRED_NETWORKS } from "./networks.ts";
import { AccountHealth, ApiKeyMode, POST_STATUSES, type PostStatus } from "./resources.ts";
import { FirstComment, MediaList, NetworkOptions, Poll, RICH_FIELDS, Split, Thread } from "./rich.ts";

const words = new Intl.ListFormat("en", { type: "conjunction" });
/** The networks' media rules in words, from the network rules (the client's and OpenAPI's docs). */
const MEDIA_RULE = `required by ${words.format(MEDIA_REQUIRED_NETWORKS)}; ${words.format(VIDEO_REQUIRED_NETWORKS)} takes a video only`;

/**
 * The string form of a schedule time that is not digits: an RFC 3339 date-time, the ISO 8601 profile
 * decisions.md allows — `YYYY-MM-DDThh:mm:ss`, an optional fraction of a second, then `Z` or `±hh:mm`.
 */
export const ScheduleDateTime = z.iso.datetime({ offset: true });

/**
 * A schedule time as the contract accepts it: Unix seconds (below 1e11), Unix milliseconds, a string
 * of digits meaning either, or an RFC 3339 date-time with a zone offset. Only the JSON type is checked
 * here, so that the time is judged where decisions.md orders it (after platforms, content and media)
 * and refused with a message that says what is wrong with it: `time/schedule-at.ts` parses it and
 * applies the "in the future" rule. The document lists the three forms.
 */
export const ScheduleTime = z.union([z.number(), z.string()]).meta({
  id: "ScheduleTime",
  description:
    "Unix seconds, Unix milliseconds, a string of digits, or ISO 8601 with a zone offset (e.g. 2026-12-01T09:00:00Z)",
  override: ({ jsonSchema }) => {
    delete jsonSchema.type;
    jsonSchema.anyOf = [
      { type: "integer", description: "Unix seconds when below 1e11, otherwise Unix milliseconds" },
      {
        type: "string",
        pattern: "^\\s*\\d+\\s*$",
        description: "the same integer as a string of digits; spaces around it are ignored",
      },
      {
        type: "string",
        format: "date-time",
        description: "YYYY-MM-DDThh:mm:ss, optional fraction of a second, then Z or ±hh:mm",
      },
    ];
  },
});

/**
 * The start of a URL the service's http(s) check lets through, for the document: URL parsing skips
 * leading spaces and control characters and reads the scheme in any case, so ` HTTPS://…` passes and
 * `ftp://…` does not. Only the document carries it: the check itself runs where decisions.md orders it,
 * with its own message. A URL that matches may still be refused (no host, a private address).
 */
export const HTTP_URL_PATTERN = "^[\\s\\u0000-\\u001f]*[Hh][Tt][Tt][Pp][Ss]?:";

/** `media` of a post: one of the user's med_ ids, or an http(s) URL (the same check as above). */
export const MEDIA_PATTERN = `^(med_|${HTTP_URL_PATTERN.slice(1)})`;

/** A request field holding an http(s) URL, documented with the pattern the service's check follows. */
const httpUrl = (description: string) => z.string().meta({ description, pattern: HTTP_URL_PATTERN });

/**
 * The longest caption the API accepts, in characters as zod counts a string's length: Unicode code
 * points (an emoji written as several joined code points counts each of them). Far above every
 * network's own limit, so it refuses only text no network would take, before any work is done on it.
 */
export const MAX_CAPTION_LENGTH = 100_000;
const CaptionText = z.string().max(MAX_CAPTION_LENGTH);

/**
 * Text per network (extension): network id → the text that network gets instead of `caption`, adapted
 * to its limit like any text. A key that is not a network id is refused (the message names it); an
 * override for a network the post does not target, or one that is empty, is ignored.
 */
export const Captions = z.partialRecord(NetworkId, CaptionText).meta({
  id: "Captions",
  description:
    "extension: network id → the text for that network instead of caption, adapted to its limit; an override that is empty, or for a network the post does not target, is ignored",
});
export type Captions = z.infer<typeof Captions>;

/**
 * `media` of a post: one http(s) URL or med_ id (the contract's form), or (extension) a list of 1–20
 * items, each a URL, a med_ id, or {url | id, alt}.
 */
const PostMedia = z.union([z.string().meta({ pattern: MEDIA_PATTERN }), MediaList]);

export const CreatePostBody = z
  .object({
    caption: CaptionText.optional().describe("default empty; adapted per network when it publishes"),
    captions: Captions.optional(),
    platforms: z
      .array(z.string())
      .describe("network ids; unknown ids are ignored, unconnected ones dropped, duplicates collapsed"),
    schedule_at: ScheduleTime.optional(),
    media: PostMedia.optional().describe(
      `an http(s) URL of an image or video, or a med_ id from POST /media; extension: a list of 1 to 20, each with optional alt text; ${MEDIA_RULE}`,
    ),
    draft: z.boolean().optional().describe("extension: true creates a draft (no fan-out, no schedule)"),
    ...RICH_FIELDS,
  })
  .meta({ id: "CreatePostBody" });
export type CreatePostBody = z.infer<typeof CreatePostBody>;

export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;

/**
 * `limit` of a list as the query string carries it: digits (surrounding spaces ignored) meaning 1 or
 * more; larger values are clamped to 100; absent, 20. Parses to the number of items of the page.
 */
export const ListLimit = z
  .string()
  .transform((text, ctx) => {
    const n = /^\d+$/.test(text.trim()) ? Number(text) : 0;
    if (n >= 1) return Math.min(n, MAX_LIST_LIMIT);
    ctx.issues.push({
      code: "custom",
      input: text,
      message: `limit must be a positive integer (1 to ${MAX_LIST_LIMIT}); got "${text.slice(0, 32)}".`,
    });
    return z.NEVER;
  })
  .default(DEFAULT_LIST_LIMIT)
  .meta({
    description: `items per page, 1 to ${MAX_LIST_LIMIT}; larger values are clamped to ${MAX_LIST_LIMIT}`,
    // A query parameter travels as text, but what it means is an integer: document that.
    // No `maximum`: a larger value is accepted (and clamped), so a client that validates must not refuse it.
    override: { type: "integer", minimum: 1, default: DEFAULT_LIST_LIMIT },
  });

/**
 * `status` of GET /posts: a comma-separated list whose unknown values are ignored. Parses to the
 * known statuses, without repeats, or to undefined (all posts) when none is left.
 */
export const PostStatusFilter = z
  .string()
  .transform((text): PostStatus[] | undefined => {
    const known = text
      .split(",")
      .map((s) => s.trim())
      .filter((s): s is PostStatus => (POST_STATUSES as readonly string[]).includes(s));
    return known.length > 0 ? [...new Set(known)] : undefined;
  })
  .optional()
  .describe(`comma-separated statuses (${POST_STATUSES.join(", ")}); unknown values are ignored`);

const ListCursor = z.string().optional().describe("opaque; taken from the Link header's rel=next URL");

export const ListPostsQuery = z.object({ status: PostStatusFilter, limit: ListLimit, cursor: ListCursor });
export type ListPostsQuery = z.output<typeof ListPostsQuery>;

export const ListAttemptsQuery = z.object({ limit: ListLimit, cursor: ListCursor });
export type ListAttemptsQuery = z.output<typeof ListAttemptsQuery>;

export const PublishDraftBody = z
  .object({ schedule_at: ScheduleTime.optional() })
  .meta({ id: "PublishDraftBody" });

export const ScheduleBody = z
  .object({
    caption: CaptionText.optional(),
    captions: Captions.optional(),
    platforms: z.array(z.string()),
    media: PostMedia.optional(),
    ...RICH_FIELDS,
    at: ScheduleTime.or(z.literal("next")).describe('a schedule time, or "next" for the next optimal slot'),
  })
  .meta({ id: "ScheduleBody" });
export type ScheduleBody = z.infer<typeof ScheduleBody>;

/**
 * PATCH /posts/{id} (extension): any of these; what is not sent stays as it is. The post as edited is
 * checked by the rules of POST /posts, in their order.
 */
export const UpdatePostBody = z
  .object({
    caption: CaptionText.optional().describe("the text for every network without an override"),
    captions: Captions.optional().describe(
      "replaces the per-network overrides ({} removes them); network id → text, as on POST /posts",
    ),
    platforms: z
      .array(z.string())
      .optional()
      .describe("replaces the networks; resolved as on POST /posts (unknown ignored, unconnected dropped)"),
    media: PostMedia.nullable()
      .optional()
      .describe(
        `an http(s) URL or a med_ id, or a list of them with alt text; null removes the media; ${MEDIA_RULE}`,
      ),
    thread: Thread.nullable().optional().describe("replaces the thread's further parts; null removes them"),
    split: Split.optional(),
    first_comment: FirstComment.nullable().optional().describe("null removes the first comment"),
    poll: Poll.nullable().optional().describe("null removes the poll"),
    options: NetworkOptions.nullable()
      .optional()
      .describe("replaces the per-network options ({} or null removes them)"),
    schedule_at: ScheduleTime.nullable()
      .optional()
      .describe("a new due time (schedules a draft); null makes a scheduled post a draft again"),
  })
  .meta({ id: "UpdatePostBody" });
export type UpdatePostBody = z.infer<typeof UpdatePostBody>;

/**
 * POST /accounts/connect. With a test key only platform (and an optional handle to show) matter: the
 * sandbox account connects at once. With a live key the network's own credentials come too, and are
 * checked against the network before the account is stored (sealed).
 */
export const ConnectAccountBody = z
  .object({
    platform: NetworkId,
    handle: z
      .string()
      .min(1)
      .max(253)
      .optional()
      .describe("test key: the handle to show; live bluesky: the account's handle (or e-mail)"),
    app_password: z.string().min(1).max(200).optional().describe("live bluesky: an app password"),
    service: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .describe("live bluesky: the account's PDS, https://bsky.social by default"),
    bot_token: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("live telegram: the bot's token from BotFather"),
    chat: z
      .union([z.string().min(1).max(200), z.number().int()])
      .optional()
      .describe("live telegram: the channel or group, @name or numeric id; the bot must be an admin of it"),
    webhook_url: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .describe("live discord: the channel's webhook URL (it holds the webhook's secret token)"),
    board: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        "live pinterest: the board pins go to, by name or id; the account's first board when left out",
      ),
    subreddit: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe(
        "live reddit: the subreddit posts go to (name or r/name); the account's own profile when left out",
      ),
    page: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("live facebook: the Page posts go to, by name or id; the first Page given when left out"),
  })
  .meta({ id: "ConnectAccountBody" });

export const SandboxAccountBody = z.object({ health: AccountHealth }).meta({ id: "SandboxAccountBody" });

const metric = z.number().int().min(0);
export const SandboxMetricsBody = z
  .object({
    post_id: z.string(),
    platform: NetworkId,
    reach: metric,
    // 0 when left out (the handler says so): no `default` in the document, which generated clients
    // would read as a field they must send.
    likes: metric.optional().describe("0 when left out"),
    comments: metric.optional().describe("0 when left out"),
    shares: metric.optional().describe("0 when left out"),
  })
  .meta({ id: "SandboxMetricsBody" });

/** The body of POST /keys (extension): the new key's mode and an optional name. */
export const CreateKeyBody = z
  .object({
    mode: ApiKeyMode,
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe("1 to 100 characters, to tell keys apart (e.g. where the key is used)"),
  })
  .meta({ id: "CreateKeyBody" });

export const CreateWebhookBody = z
  .object({
    url: httpUrl("https:// or http:// URL that receives events"),
    events: z.array(EventType).min(1).optional().describe("default: all eight event types"),
  })
  .meta({ id: "CreateWebhookBody" });

/** The body of PATCH /webhooks/{id}: what may change. The secret never does. */
export const UpdateWebhookBody = z
  .object({
    url: httpUrl("https:// or http:// URL that receives events; checked as at creation").optional(),
    events: z.array(EventType).min(1).optional().describe("the event types to receive, replacing the list"),
    status: z
      .enum(WEBHOOK_STATUSES)
      .optional()
      .describe(
        "enabled: send events again (an endpoint is disabled when it answers 410 Gone); disabled: send nothing",
      ),
  })
  .meta({ id: "UpdateWebhookBody" });

export const TestWebhookBody = z
  .object({ type: EventType.optional().describe("default: the endpoint's first subscribed type") })
  .meta({ id: "TestWebhookBody" });

export const MediaUrlBody = z
  .object({
    url: httpUrl("public http(s) URL of an image or video"),
    type: z
      .string()
      .optional()
      .describe("MIME type (image/… or video/…); needed when the URL does not end in a known extension"),
  })
  .meta({ id: "MediaUrlBody" });
