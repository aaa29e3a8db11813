import { MetaFake, type MetaFakeShape } from "../../common/meta-fake.ts";

/*
 * The Threads fake: Meta's container fake (common/meta-fake.ts) with Threads' names, as its docs give
 * them (developers.facebook.com/docs/threads): authorize at /oauth/authorize, the code traded at
 * /oauth/access_token, th_exchange_token and th_refresh_token, containers at POST /v1.0/{user}/threads
 * (TEXT, IMAGE, VIDEO) whose `status` is read, POST /v1.0/{user}/threads_publish, the account's
 * threads (GET /v1.0/{user}/threads: text, timestamp, permalink, newest first, paged), a post's insights
 * (GET /v1.0/{media}/insights: views, likes, replies, reposts, quotes, shares), 250 posts a day, 500
 * characters. Carousels of 2–20 items, `alt_text` on images and videos, replies through `reply_to_id`
 * (threads_manage_replies; the account's replies at GET /v1.0/{user}/replies with
 * threads_read_replies), and polls through `poll_attachment` on TEXT posts.
 */
export const THREADS_FAKE_SHAPE: MetaFakeShape = {
  name: "Threads",
  version: "/v1.0",
  createEdge: "threads",
  publishEdge: "threads_publish",
  listEdge: "threads",
  mediaNode: "ThreadsMedia",
  limitEdge: "threads_publishing_limit",
  statusField: "status",
  textField: "text",
  exchangeGrant: "th_exchange_token",
  refreshGrant: "th_refresh_token",
  scopes: [
    "threads_basic",
    "threads_content_publish",
    "threads_manage_insights",
    "threads_manage_replies",
    "threads_read_replies",
  ],
  postsPerDay: 250,
  textOnly: true,
  wrapCodeAnswer: false,
  insightsScope: "threads_manage_insights",
  insightMetrics: ["views", "likes", "replies", "reposts", "quotes", "shares"],
  maxCarouselItems: 20,
  altTextTypes: ["IMAGE", "VIDEO"],
  videoType: "VIDEO",
  replies: { scope: "threads_manage_replies", readScope: "threads_read_replies" },
  polls: true,
  commentsScope: null,
  permalink: (username, id) => `https://www.threads.net/@${username}/post/${id}`,
};

export type {
  MetaFakePost as ThreadsFakePost,
  MetaFakeUser as ThreadsFakeUser,
} from "../../common/meta-fake.ts";

export const ThreadsFake = {
  start: (options: { port?: number; now?: () => number } = {}): Promise<MetaFake> =>
    MetaFake.start(THREADS_FAKE_SHAPE, options),
};
export type ThreadsFake = MetaFake;
