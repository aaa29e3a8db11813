import { MetaFake, type MetaFakeShape } from "../../common/meta-fake.ts";

/*
 * The Instagram fake: Meta's container fake (common/meta-fake.ts) with the names of the Instagram API
 * with Instagram Login, as its docs give them (developers.facebook.com/docs/instagram-platform): the
 * code exchange answered inside data[], ig_exchange_token and ig_refresh_token, containers at
 * POST /v23.0/{ig-user}/media (an image_url, or a REELS video_url; never text alone) whose `status_code`
 * is read, POST /v23.0/{ig-user}/media_publish, the account's media (GET /v23.0/{ig-user}/media:
 * caption, timestamp, permalink, newest first, paged), a post's insights (GET /v23.0/{media}/insights: reach,
 * views, likes, comments, shares, saved, total_interactions), 50 posts a day, 2200 characters.
 * Carousels of 2–10 items (IMAGE, or VIDEO, each with is_carousel_item=true), `alt_text` on images
 * only (not reels), and comments on a post (POST /v23.0/{ig-media}/comments with
 * instagram_business_manage_comments).
 */
export const INSTAGRAM_FAKE_SHAPE: MetaFakeShape = {
  name: "Instagram",
  version: "/v23.0",
  createEdge: "media",
  publishEdge: "media_publish",
  listEdge: "media",
  mediaNode: "IGMedia",
  limitEdge: "content_publishing_limit",
  statusField: "status_code",
  textField: "caption",
  exchangeGrant: "ig_exchange_token",
  refreshGrant: "ig_refresh_token",
  scopes: [
    "instagram_business_basic",
    "instagram_business_content_publish",
    "instagram_business_manage_comments",
    "instagram_business_manage_messages",
    "instagram_business_manage_insights",
  ],
  postsPerDay: 50,
  textOnly: false,
  wrapCodeAnswer: true,
  insightsScope: "instagram_business_manage_insights",
  insightMetrics: ["reach", "views", "likes", "comments", "shares", "saved", "total_interactions"],
  maxCarouselItems: 10,
  altTextTypes: ["IMAGE"],
  videoType: "REELS",
  replies: null,
  polls: false,
  commentsScope: "instagram_business_manage_comments",
  permalink: (_username, id) => `https://www.instagram.com/p/${id}/`,
};

export const InstagramFake = {
  start: (options: { port?: number; now?: () => number } = {}): Promise<MetaFake> =>
    MetaFake.start(INSTAGRAM_FAKE_SHAPE, options),
};
export type InstagramFake = MetaFake;
