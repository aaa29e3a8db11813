import { z } from "zod";
import { NetworkId } from "./networks.ts";
import { PlanName } from "./plans.ts";
import { ContentMedia, FirstCommentOutcome, TargetPart } from "./rich.ts";

const unixMs = z.number().int().describe("Unix time in milliseconds");
const count = z.number().int().min(0);

export const POST_STATUSES = ["draft", "scheduled", "publishing", "published"] as const;
export const PostStatus = z.enum(POST_STATUSES).meta({ id: "PostStatus" });
export type PostStatus = z.infer<typeof PostStatus>;

export const ACCOUNT_HEALTH = ["healthy", "expiring", "reauth_required"] as const;
export const AccountHealth = z.enum(ACCOUNT_HEALTH).meta({ id: "AccountHealth" });
export type AccountHealth = z.infer<typeof AccountHealth>;

export const CurrentUser = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    studio: z.string(),
    plan: PlanName,
    limits: z.object({
      profiles: count,
      posts_per_month: count.nullable().describe("null means unlimited"),
      api_calls_per_month: count,
    }),
    usage: z.object({ api_calls_this_month: count }),
  })
  .meta({ id: "CurrentUser" });
export type CurrentUser = z.infer<typeof CurrentUser>;

export const Post = z
  .object({
    id: z.string(),
    caption: z.string(),
    platforms: z.array(NetworkId),
    status: PostStatus,
    has_media: z.boolean(),
    scheduled_at: unixMs.nullable(),
    published_at: unixMs.nullable(),
    reach: count,
    engagement_rate: z.number().min(0).describe("percentage, two decimals"),
  })
  .meta({ id: "Post" });
export type Post = z.infer<typeof Post>;

export const TARGET_STATUSES = ["pending", "published", "failed"] as const;
export const TargetStatus = z.enum(TARGET_STATUSES).meta({ id: "TargetStatus" });
export type TargetStatus = z.infer<typeof TargetStatus>;

/** One network's result for a post (extension: GET /posts/{id}/targets). */
export const Target = z
  .object({
    platform: NetworkId,
    status: TargetStatus,
    text: z.string().describe("the text as adapted for this network"),
    permalink: z.string().nullable(),
    error: z.string().nullable(),
    published_at: unixMs.nullable(),
    reach: count,
    likes: count,
    comments: count,
    shares: count,
    parts: z
      .array(TargetPart)
      .describe("extension: the messages this network gets, in order (more than one for a thread)"),
    media: z.array(ContentMedia).describe("extension: the media this network carries, in order"),
    first_comment: FirstCommentOutcome.nullable().describe(
      "extension: the first comment's outcome; null when none",
    ),
    notes: z.array(z.string()).describe("extension: what was adapted or not carried, in words"),
  })
  .meta({ id: "Target" });
export type Target = z.infer<typeof Target>;

/** One piece of media as a network would get it (extension: POST /posts/validate). */
export const MediaPreview = z
  .object({
    url: z
      .string()
      .describe("where the network fetches it: the URL given, or the upload's URL for a med_ id"),
    type: z.string().nullable().describe("MIME type; null when it cannot be told before publishing"),
    alt: z
      .string()
      .nullable()
      .describe("the alt text the network gets; null when none was given or the network takes none"),
  })
  .meta({ id: "MediaPreview" });
export type MediaPreview = z.infer<typeof MediaPreview>;

/** One message a network would get: the first, or a later part of a thread. */
export const PartPreview = z
  .object({
    text: z.string().describe("the text as adapted for this network"),
    media: z.array(MediaPreview).describe("the media this part carries, in order"),
  })
  .meta({ id: "PartPreview" });
export type PartPreview = z.infer<typeof PartPreview>;

/** What one network would get (extension: POST /posts/validate). */
export const TargetPreview = z
  .object({
    platform: NetworkId,
    parts: z
      .array(PartPreview)
      .describe("the messages it would publish, in order (more than one for a thread)"),
    first_comment: z
      .string()
      .nullable()
      .describe("the text of the first comment it would add; null when none"),
    notes: z
      .array(z.string())
      .describe("what was adapted or not carried, in words (e.g. text shortened from 412 to 280 characters)"),
  })
  .meta({ id: "TargetPreview" });
export type TargetPreview = z.infer<typeof TargetPreview>;

/** The answer of POST /posts/validate: the post passes every check POST /posts makes. */
export const PostValidation = z
  .object({
    valid: z.literal(true),
    targets: z.array(TargetPreview).describe("one entry per network the post resolves to, in its order"),
  })
  .meta({ id: "PostValidation" });
export type PostValidation = z.infer<typeof PostValidation>;

export const Account = z
  .object({
    platform: NetworkId,
    handle: z.string(),
    followers: count,
    health: AccountHealth,
  })
  .meta({ id: "Account" });
export type Account = z.infer<typeof Account>;

export const OAuthConnectStart = z
  .object({
    platform: NetworkId,
    authorize_url: z
      .string()
      .describe("The network's page where the user grants access; open it in a browser."),
    state: z
      .string()
      .describe("Single-use, bound to the caller; the network sends it back to the callback with the code."),
    expires_at: z
      .string()
      .describe("When the connect lapses if access was not granted: 15 minutes (ISO 8601)."),
  })
  .meta({ id: "OAuthConnectStart" });
export type OAuthConnectStart = z.infer<typeof OAuthConnectStart>;

export const PlatformAnalytics = z
  .object({ platform: NetworkId, reach: count, engagementRate: z.number().min(0) })
  .meta({ id: "PlatformAnalytics" });

export const Analytics = z
  .object({
    totalReach: count,
    engagementRate: z.number().min(0),
    postsPublished: count,
    followers: count,
    perPlatform: z.array(PlatformAnalytics),
  })
  .meta({ id: "Analytics" });
export type Analytics = z.infer<typeof Analytics>;

export const DeleteResult = z
  .object({ deleted: z.literal(true), id: z.string() })
  .meta({ id: "DeleteResult" });
export type DeleteResult = z.infer<typeof DeleteResult>;

export const KEY_MODES = ["test", "live"] as const;
export const ApiKeyMode = z
  .enum(KEY_MODES)
  .describe("test: sandbox networks (sp_test_…); live: the real networks (sp_live_…)")
  .meta({ id: "ApiKeyMode" });

/** An API key as GET /keys lists it (extension): never the key itself. */
export const ApiKey = z
  .object({
    id: z.string().describe("key_…"),
    mode: ApiKeyMode,
    name: z.string().nullable().describe("what the key was called when it was made; null when unnamed"),
    hint: z.string().describe("the key's prefix and its last 4 characters (sp_test_…Xy9z), never the key"),
    created_at: unixMs,
    last_used_at: unixMs
      .nullable()
      .describe(
        "when the key last authenticated a call, to the minute (kept at most once a minute); null when never",
      ),
  })
  .meta({ id: "ApiKey" });
export type ApiKey = z.infer<typeof ApiKey>;

/** The answer of POST /keys: the only time the key appears. */
export const CreatedApiKey = z
  .object({
    id: z.string().describe("key_…"),
    key: z.string().describe("the key itself: shown in this answer only, never again; keep it as a secret"),
    mode: ApiKeyMode,
    name: z.string().nullable(),
    created_at: unixMs,
  })
  .meta({ id: "CreatedApiKey" });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const MEDIA_STATUSES = ["processing", "ready"] as const;
export const Media = z
  .object({
    id: z.string(),
    url: z.string(),
    type: z.string().describe("MIME type, e.g. image/png"),
    size: count.describe("bytes; 0 when the media is a remote URL of unknown size"),
    status: z.enum(MEDIA_STATUSES),
  })
  .meta({ id: "Media" });
export type Media = z.infer<typeof Media>;

/** `{ data: [...] }`, the shape of every list. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item) });
}

export const PostList = listOf(Post).meta({ id: "PostList" });
export const TargetList = listOf(Target).meta({ id: "TargetList" });
export const AccountList = listOf(Account).meta({ id: "AccountList" });
export const ApiKeyList = listOf(ApiKey).meta({ id: "ApiKeyList" });
