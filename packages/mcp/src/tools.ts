import {
  CreatePostBody,
  MAX_LIST_LIMIT,
  MediaUrlBody,
  NetworkId,
  POST_STATUSES,
  PostStatus,
  RICH_FIELDS,
  ScheduleBody,
  UpdatePostBody,
} from "@socialpub/core";
import { z } from "zod";
import { type ToolSpec, tool } from "./tool.ts";

const postId = z
  .string()
  .min(1)
  .describe("the post's id, post_… (from publish_post, schedule_post or list_posts)");

/** Network ids as a tool takes them: the contract's ids, so a model sees the twelve it may use. */
const platforms = z
  .array(NetworkId)
  .min(1)
  .describe(
    "network ids to post to; networks the account has not connected are dropped (list_accounts shows the connected ones)",
  );

const RULES_HINT =
  "Each network's text limit and media needs are in the resource socialpub://networks/rules; text over a limit is shortened for that network.";

/**
 * What a post may carry beyond its text (the contract's rich fields): media as a list with alt text,
 * thread parts, split, a first comment, a poll and per-network options.
 */
const RICH_HINT =
  'Beyond text: media as a list of items each with alt text ({url, alt} or {id, alt}), thread (further parts, published as replies where the network threads), split: "thread" (split a long text into a thread instead of shortening it), first_comment, poll ({options, duration_minutes}, on x, threads, telegram, discord) and options per network (e.g. youtube title and privacy). What each network carries is in socialpub://networks/rules; validate_post shows what each network would get.';

const publish = tool({
  name: "publish_post",
  title: "Publish a post now",
  description: `Publish a post now to one or more connected networks. Give caption (the text for every network), or captions to give a network its own text. ${RULES_HINT} ${RICH_HINT} The answer is the post; get_post_results shows what each network got.`,
  input: z.object({
    caption: CreatePostBody.shape.caption,
    captions: CreatePostBody.shape.captions,
    platforms,
    media: CreatePostBody.shape.media,
    ...RICH_FIELDS,
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  write: {},
  run: (args, { client, idempotencyKey, signal }) => client.posts.create(args, { idempotencyKey, signal }),
});

const schedule = tool({
  name: "schedule_post",
  title: "Schedule a post",
  description: `Schedule a post for a time, or for the account's next optimal slot with at: "next". It publishes on its own at that time; edit_post changes it and delete_post cancels it until then. ${RULES_HINT} ${RICH_HINT}`,
  input: z.object({
    caption: ScheduleBody.shape.caption.describe("the text for every network without its own in captions"),
    captions: ScheduleBody.shape.captions,
    platforms,
    media: CreatePostBody.shape.media,
    ...RICH_FIELDS,
    at: ScheduleBody.shape.at,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: {},
  run: (args, { client, idempotencyKey, signal }) => client.schedule(args, { idempotencyKey, signal }),
});

const validatePost = tool({
  name: "validate_post",
  title: "Check a post before publishing",
  description: `Check a post without publishing or storing anything: answers what each network would get (its text as adapted to that network's limit, the media, and notes such as "text shortened from 412 to 280 characters"), or the service's error saying what to fix. Takes the arguments of publish_post, and schedule_at to check a time. Use it before publish_post or schedule_post to see how each network shows the text. ${RULES_HINT}`,
  input: z.object({
    caption: CreatePostBody.shape.caption,
    captions: CreatePostBody.shape.captions,
    platforms,
    media: CreatePostBody.shape.media,
    ...RICH_FIELDS,
    schedule_at: CreatePostBody.shape.schedule_at,
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (args, { client, signal }) => client.posts.validate(args, { signal }),
});

const retryPost = tool({
  name: "retry_post",
  title: "Retry a post's failed networks",
  description:
    "Send again the networks of a post that failed (get_post_results shows which failed and why), once each, with each account as it is now: reconnect an account first when that is why it failed. The networks that published are left alone; a network whose earlier outcome is unknown is checked first and never sent twice. Refused when no network has failed or the post is still publishing.",
  input: z.object({ post_id: postId }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  write: {
    // The key also depends on what each network and account is now: retrying the same call replays its
    // answer, and a retry after the networks failed again (or an account was reconnected) runs.
    keyState: async (client, args, signal) => {
      const [targets, accounts] = await Promise.all([
        client.posts.targets(args.post_id, { signal }),
        client.accounts.list({ signal }),
      ]);
      return {
        targets: targets.data.map((t) => [t.platform, t.status, t.error]),
        accounts: accounts.data.map((a) => [a.platform, a.handle, a.health]),
      };
    },
  },
  run: (args, { client, idempotencyKey, signal }) =>
    client.posts.retry(args.post_id, { idempotencyKey, signal }),
});

const listPosts = tool({
  name: "list_posts",
  title: "List posts",
  description:
    "List the account's posts, most recent first, one page at a time. Pass next_cursor from the answer as cursor for the next page.",
  input: z.object({
    status: z
      .array(PostStatus)
      .optional()
      .describe(`only posts with one of these statuses (${POST_STATUSES.join(", ")}); all when left out`),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_LIST_LIMIT)
      .optional()
      .describe(`posts per page, 1 to ${MAX_LIST_LIMIT}; 20 when left out`),
    cursor: z.string().optional().describe("next_cursor from the previous page"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async (args, { client, signal }) => {
    const page = await client.posts.list(args, { signal });
    return { data: page.data, next_cursor: page.nextCursor };
  },
});

const getPost = tool({
  name: "get_post",
  title: "Get a post",
  description:
    "Get one post: its status (draft, scheduled, publishing, published), networks, times and reach.",
  input: z.object({ post_id: postId }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (args, { client, signal }) => client.posts.get(args.post_id, { signal }),
});

const getResults = tool({
  name: "get_post_results",
  title: "Get each network's result",
  description:
    "Get each network's result for a post: pending, published (with its permalink) or failed (with the network's error), the text as adapted for that network, and its metrics.",
  input: z.object({ post_id: postId }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (args, { client, signal }) => client.posts.targets(args.post_id, { signal }),
});

const editPost = tool({
  name: "edit_post",
  title: "Edit a scheduled post or a draft",
  description:
    "Edit a scheduled post or a draft before it publishes: its text, networks, media (with alt text), thread, first comment, poll, options or due time. Only what is given changes; null removes a thread, first comment or poll. A post that is publishing or published cannot be edited.",
  input: UpdatePostBody.extend({
    post_id: postId,
    platforms: platforms.optional().describe("replaces the networks; unconnected ones are dropped"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  write: {
    // An edit sets fields to values, so repeating it is harmless; deriving its key from the post as it
    // is now too lets a later edit back to earlier values run, instead of replaying an old answer.
    keyState: (client, args, signal) => client.posts.get(args.post_id, { signal }),
  },
  run: ({ post_id, ...body }, { client, idempotencyKey, signal }) =>
    client.posts.update(post_id, body, { idempotencyKey, signal }),
});

const deletePost = tool({
  name: "delete_post",
  title: "Cancel or delete a post",
  description:
    "Cancel a scheduled post (it never publishes), delete a draft, or remove a published post's record (what was published stays on the networks).",
  input: z.object({ post_id: postId }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  write: {},
  run: (args, { client, idempotencyKey, signal }) =>
    client.posts.delete(args.post_id, { idempotencyKey, signal }),
});

const listAccounts = tool({
  name: "list_accounts",
  title: "List connected accounts",
  description:
    "List the networks this account has connected, with each one's handle, followers and health (reauth_required means it must be reconnected before posts reach it).",
  input: z.object({}),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (_args, { client, signal }) => client.accounts.list({ signal }),
});

const getAnalytics = tool({
  name: "get_analytics",
  title: "Read analytics",
  description:
    "Read the account's analytics: total reach, engagement rate, posts published, followers, and reach and engagement per network.",
  input: z.object({}),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (_args, { client, signal }) => client.analytics.get({ signal }),
});

const uploadMedia = tool({
  name: "upload_media",
  title: "Add media from a URL",
  description:
    "Register an image or video that is online by its URL. The answer's id (med_…) can be passed as media to publish_post or schedule_post; a public http(s) URL can be passed there directly too.",
  input: z.object({ url: MediaUrlBody.shape.url, type: MediaUrlBody.shape.type }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: {},
  run: (args, { client, idempotencyKey, signal }) => client.media.upload(args, { idempotencyKey, signal }),
});

const me = tool({
  name: "get_usage",
  title: "Plan and usage",
  description:
    "Read the account's name, plan and monthly limits, and the API calls used this month (each tool call uses at least one).",
  input: z.object({}),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (_args, { client, signal }) => client.me({ signal }),
});

/** Every tool the server offers, in the order a client lists them. */
export const TOOLS: readonly ToolSpec[] = [
  publish,
  schedule,
  validatePost,
  listPosts,
  getPost,
  getResults,
  retryPost,
  editPost,
  deletePost,
  listAccounts,
  getAnalytics,
  uploadMedia,
  me,
];
