import {
  CreatePostBody,
  ListPostsQuery,
  PublishDraftBody,
  ScheduleBody,
  UpdatePostBody,
} from "../../contract/requests.ts";
import { DeleteResult, Post, PostList, PostValidation, TargetList } from "../../contract/resources.ts";
import { PostContentView } from "../../contract/rich.ts";
import { createPost } from "../handlers/create-post.ts";
import { deletePost } from "../handlers/delete-post.ts";
import { publishDraft } from "../handlers/publish-draft.ts";
import { getPost, getPostContent, getPostTargets, listPosts } from "../handlers/read-posts.ts";
import { retryPost } from "../handlers/retry-post.ts";
import { schedulePost } from "../handlers/schedule.ts";
import { updatePost } from "../handlers/update-post.ts";
import { validatePost } from "../handlers/validate-post.ts";
import { type AnyRoute, defineRoute } from "../route.ts";
import { notFound, otherMode, postId } from "./params.ts";

/** Posts: create, schedule, read, edit, publish, retry and delete. */
export const POST_ROUTES: readonly AnyRoute[] = [
  defineRoute({
    method: "POST",
    path: "/posts",
    operationId: "createPost",
    tag: "Posts",
    summary: "Create a post and publish it now, schedule it, or keep it as a draft",
    description:
      "Without schedule_at the post is fanned out before the response (status published). With schedule_at it is queued (status scheduled). With draft: true it is kept as a draft. captions gives a network its own text instead of caption; each network's text is in GET /posts/{id}/targets. Extensions: media as a list with alt text, thread (replies where the network threads, joined elsewhere), split, first_comment, poll and per-network options; what each network got is in the targets' parts, media, first_comment and notes, and the content as sent in GET /posts/{id}/content.",
    auth: true,
    // Its first write is the post with its answer: the key is claimed in that transaction.
    claimsKeyWithChange: true,
    body: { schema: CreatePostBody },
    responses: {
      201: { description: "The post.", schema: Post },
      400: {
        description:
          "No connected network resolved (`Select at least one connected network.`), the post is empty, a network needs media or cannot carry the media given (naming the network and its limit), a thread part is empty, a targeted network takes no poll or refuses its bounds, an option is unknown to its network, schedule_at is unparseable or in the past, or a plan limit is hit.",
      },
    },
    handler: createPost,
  }),
  defineRoute({
    method: "POST",
    path: "/posts/validate",
    operationId: "validatePost",
    tag: "Posts",
    summary: "Check a post without publishing it: what each network would get, or why it would be refused",
    description:
      "Takes the body of POST /posts and makes its checks in the same order: a post POST /posts would refuse is refused with the same 400. Otherwise answers each network's parts (the text as that network's adaptation makes it, and the media), its first comment and notes on what was adapted. Stores nothing, sends no event and takes no place in the month's posts; it counts as an API call. Takes no Idempotency-Key (one sent is ignored): it changes nothing.",
    auth: true,
    idempotencyKey: false,
    body: { schema: CreatePostBody },
    responses: {
      200: {
        description: "The post would be accepted; what each network would get.",
        schema: PostValidation,
      },
      400: { description: "What POST /posts would answer 400 for, with the same message." },
    },
    handler: validatePost,
  }),
  defineRoute({
    method: "POST",
    path: "/schedule",
    operationId: "schedulePost",
    tag: "Posts",
    summary: "Queue a post for an exact time, or for the next optimal slot",
    description:
      'at is a schedule time (as schedule_at) or "next": the hour of the week with the best reported engagement for those networks over the last 90 days (among hours with figures from at least three published posts), else 09:00, 12:00 or 17:00 UTC; never sooner than 5 minutes ahead, at most one post per network per hour.',
    auth: true,
    body: { schema: ScheduleBody },
    responses: {
      201: { description: "The scheduled post.", schema: Post },
      400: { description: "As POST /posts, with at in place of schedule_at." },
    },
    handler: schedulePost,
  }),
  defineRoute({
    method: "GET",
    path: "/posts",
    operationId: "listPosts",
    tag: "Posts",
    summary: "The account's posts, most recent first",
    auth: true,
    query: ListPostsQuery,
    responses: {
      200: { description: 'A page of posts; `Link: <…>; rel="next"` when more exist.', schema: PostList },
      400: { description: "limit is not a positive integer, or cursor is not valid." },
    },
    handler: listPosts,
  }),
  defineRoute({
    method: "GET",
    path: "/posts/{id}",
    operationId: "getPost",
    tag: "Posts",
    summary: "One post with its current status, reach and engagement",
    auth: true,
    params: postId,
    responses: { 200: { description: "The post.", schema: Post }, 404: notFound },
    handler: getPost,
  }),
  defineRoute({
    method: "PATCH",
    path: "/posts/{id}",
    operationId: "updatePost",
    tag: "Posts",
    summary: "Edit or reschedule a draft or a scheduled post",
    idempotencyKey: true,
    description:
      "Send any of caption, captions, platforms, media, thread, split, first_comment, poll, options and schedule_at; the others stay as they are (null removes media, thread, first_comment, poll and options). The post as edited is checked by the rules of POST /posts, in the same order, and nothing changes when one refuses it. schedule_at on a draft schedules it; schedule_at: null makes a scheduled post a draft again. A changed due time writes post.scheduled. An edit racing the scheduler either lands before the post publishes (it publishes as edited) or answers 409.",
    auth: true,
    params: postId,
    body: { schema: UpdatePostBody },
    responses: {
      200: { description: "The post as edited.", schema: Post },
      400: {
        description:
          "Nothing to change was sent, no connected network resolved (`Select at least one connected network.`), the post would be empty, a network needs media, or schedule_at is unparseable or in the past.",
      },
      403: otherMode("edit"),
      404: notFound,
      409: {
        description: "The post is publishing or published: only a draft or a scheduled post can be edited.",
      },
    },
    handler: updatePost,
  }),
  defineRoute({
    method: "DELETE",
    path: "/posts/{id}",
    operationId: "deletePost",
    tag: "Posts",
    summary: "Delete a draft, cancel a scheduled post, or remove a published post's record",
    description: "A published post stays on the networks; only the service's record is removed.",
    auth: true,
    params: postId,
    responses: { 200: { description: "Deleted.", schema: DeleteResult }, 404: notFound },
    handler: deletePost,
  }),
  defineRoute({
    method: "GET",
    path: "/posts/{id}/targets",
    operationId: "listPostTargets",
    tag: "Posts",
    summary: "What each network did with the post: adapted text, status, permalink, error, metrics",
    auth: true,
    params: postId,
    responses: { 200: { description: "One entry per network.", schema: TargetList }, 404: notFound },
    handler: getPostTargets,
  }),
  defineRoute({
    method: "GET",
    path: "/posts/{id}/content",
    operationId: "getPostContent",
    tag: "Posts",
    summary: "The post's whole content as sent: media with alt text, thread, first comment, poll, options",
    description:
      'Extension. The post resource stays as the contract states it (has_media says whether any media is attached); this reads what was sent: caption, captions, media as [{url, type, alt}] (a med_ id as its upload\'s URL), the thread\'s parts, first_comment, poll, options and split ("shorten" unless "thread" was sent).',
    auth: true,
    params: postId,
    responses: { 200: { description: "The post's content.", schema: PostContentView }, 404: notFound },
    handler: getPostContent,
  }),
  defineRoute({
    method: "POST",
    path: "/posts/{id}/publish",
    operationId: "publishDraft",
    tag: "Posts",
    summary: "Publish a draft now, or schedule it with schedule_at",
    description:
      "Also retries a post that went back to draft because every network failed. Targets start again as pending.",
    auth: true,
    params: postId,
    body: { schema: PublishDraftBody, optional: true },
    responses: {
      200: {
        description: "The post, published (or back to draft when every network failed) or scheduled.",
        schema: Post,
      },
      400: { description: "schedule_at is unparseable or in the past." },
      403: otherMode("publish"),
      404: notFound,
      409: { description: "The post is not a draft." },
    },
    handler: publishDraft,
  }),
  defineRoute({
    method: "POST",
    path: "/posts/{id}/retry",
    operationId: "retryPost",
    tag: "Posts",
    summary: "Send again the networks of a post that failed",
    description:
      "Each failed network is sent again once, with its account's credentials as they are now (reconnect the account first when that is why it failed); the networks that published are left as they are, and one that publishes now writes post.published. A network whose earlier attempt's outcome is unknown is first checked with the network, and not sent again where the network cannot tell: the post never appears twice. The post is publishing meanwhile; the answer is the post once the networks have answered (up to 20 s), as for a post published now.",
    auth: true,
    params: postId,
    responses: {
      200: { description: "The post, after the networks were sent again.", schema: Post },
      400: { description: "A network's pacing is used up for now; the message says when it can go." },
      403: otherMode("retry"),
      404: notFound,
      409: {
        description:
          "No network of the post has failed, or the post is scheduled or still publishing (a network is being published to).",
      },
    },
    handler: retryPost,
  }),
];
