import { z } from "zod";
import {
  CreatedWebhookEndpoint,
  DeliveryAttemptList,
  ResendResult,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEvent,
} from "../contract/events.ts";
import {
  ConnectAccountBody,
  CreateKeyBody,
  CreatePostBody,
  CreateWebhookBody,
  ListAttemptsQuery,
  ListPostsQuery,
  MediaUrlBody,
  PublishDraftBody,
  SandboxAccountBody,
  SandboxMetricsBody,
  ScheduleBody,
  TestWebhookBody,
  UpdatePostBody,
  UpdateWebhookBody,
} from "../contract/requests.ts";
import {
  Account,
  AccountList,
  Analytics,
  ApiKeyList,
  CreatedApiKey,
  CurrentUser,
  DeleteResult,
  Media,
  OAuthConnectStart,
  Post,
  PostList,
  PostValidation,
  Target,
  TargetList,
} from "../contract/resources.ts";
import { listAccounts } from "./handlers/accounts.ts";
import { getAnalytics } from "./handlers/analytics.ts";
import { connectAccount, disconnectAccount, setSandboxAccountHealth } from "./handlers/connect-accounts.ts";
import { createPost } from "./handlers/create-post.ts";
import { deletePost } from "./handlers/delete-post.ts";
import { createKey, deleteKey, listKeys } from "./handlers/keys.ts";
import { getMe } from "./handlers/me.ts";
import { createMedia, getMediaContent, getOwnMediaContent, MEDIA_TYPE } from "./handlers/media.ts";
import { publishDraft } from "./handlers/publish-draft.ts";
import { getPost, getPostTargets, listPosts } from "./handlers/read-posts.ts";
import { retryPost } from "./handlers/retry-post.ts";
import { reportSandboxMetrics } from "./handlers/sandbox-metrics.ts";
import { schedulePost } from "./handlers/schedule.ts";
import { getHealth, getOpenApi } from "./handlers/system.ts";
import { updatePost } from "./handlers/update-post.ts";
import { validatePost } from "./handlers/validate-post.ts";
import { listWebhookAttempts, resendWebhookEvent } from "./handlers/webhook-deliveries.ts";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  openKeptWebhookAnswer,
  testWebhook,
  updateWebhook,
} from "./handlers/webhooks.ts";
import { finishOAuthConnect } from "./oauth/finish-connect.ts";
import { type AnyRoute, defineRoute } from "./route.ts";

/** What GET /openapi.json answers, as far as a client relies on it: an OpenAPI 3.1 document. */
const OpenApiDocument = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ description: "An OpenAPI 3.1 document: this one." });

const postId = z.object({ id: z.string().meta({ description: "The post id, post_…" }) });
const notFound = { description: "No post with that id belongs to the account (`Post not found.`)." };
const platformParam = z.object({ platform: z.string().meta({ description: "A network id, e.g. x" }) });
const webhookId = z.object({ id: z.string().meta({ description: "The webhook endpoint id, wh_…" }) });
const webhookNotFound = {
  description: "No endpoint with that id belongs to the account (`Webhook not found.`).",
};
const webhookEventIds = webhookId.extend({
  event_id: z.string().meta({ description: "The event id, evt_…" }),
});
const mediaId = z.object({ id: z.string().meta({ description: "The media id, med_…" }) });
const mediaContent = mediaId.extend({
  token: z.string().meta({ description: "The capability token from the upload's url" }),
});
const accountNotFound = { description: "No account of that network is connected." };
const otherMode = (act: string) => ({
  description: `The post was made with a key of the other mode (test or live): ${act} it with a key of its own mode.`,
});
const MEDIA_BYTES = ["image/*", "video/*"] as const;
const keyId = z.object({ id: z.string().meta({ description: "The key's id, key_…" }) });

/** Every operation the service serves. Registration and the OpenAPI document both come from here. */
export const ROUTES: readonly AnyRoute[] = [
  defineRoute({
    method: "GET",
    path: "/me",
    operationId: "getMe",
    tag: "Account",
    summary: "The current user, plan limits and this month's usage",
    auth: true,
    responses: { 200: { description: "The current user.", schema: CurrentUser } },
    handler: getMe,
  }),
  defineRoute({
    method: "GET",
    path: "/keys",
    operationId: "listKeys",
    tag: "Keys",
    summary: "The account's API keys, each with a hint, never the key itself",
    description:
      "Keys not revoked, oldest first. A test key lists test keys only; a live key lists both. last_used_at is kept to the minute: a key's use is written at most once a minute.",
    auth: true,
    responses: { 200: { description: "The keys.", schema: ApiKeyList } },
    handler: listKeys,
  }),
  defineRoute({
    method: "POST",
    path: "/keys",
    operationId: "createKey",
    tag: "Keys",
    summary: "Create a test or live key; the key is shown only in this answer",
    description:
      "The service keeps only the key's hash, so this answer is not kept for replay and the operation takes no Idempotency-Key (one sent is ignored). Should the answer be lost, the key made is listed by GET /keys (by its name and time): revoke it and create another.",
    auth: true,
    idempotencyKey: false,
    body: { schema: CreateKeyBody },
    responses: {
      201: { description: "The key, shown once.", schema: CreatedApiKey },
      400: { description: "mode is missing or unknown, name is empty or too long, or 50 keys are active." },
      403: { description: "A test key asked for a live key: a test key manages test keys only." },
    },
    handler: createKey,
  }),
  defineRoute({
    method: "DELETE",
    path: "/keys/{id}",
    operationId: "revokeKey",
    tag: "Keys",
    summary: "Revoke a key: every call with it is refused from now on, on every instance",
    description: "The key making the request may revoke itself: the answer is 200, and its next call 401.",
    auth: true,
    params: keyId,
    responses: {
      200: { description: "Revoked.", schema: DeleteResult },
      403: { description: "A test key asked to revoke a live key: a test key manages test keys only." },
      404: { description: "No active key with that id belongs to the account (`API key not found.`)." },
    },
    handler: deleteKey,
  }),
  defineRoute({
    method: "POST",
    path: "/posts",
    operationId: "createPost",
    tag: "Posts",
    summary: "Create a post and publish it now, schedule it, or keep it as a draft",
    description:
      "Without schedule_at the post is fanned out before the response (status published). With schedule_at it is queued (status scheduled). With draft: true it is kept as a draft. captions gives a network its own text instead of caption; each network's text is in GET /posts/{id}/targets.",
    auth: true,
    // Its first write is the post with its answer: the key is claimed in that transaction.
    claimsKeyWithChange: true,
    body: { schema: CreatePostBody },
    responses: {
      201: { description: "The post.", schema: Post },
      400: {
        description:
          "No connected network resolved (`Select at least one connected network.`), the post is empty, a network needs media, schedule_at is unparseable or in the past, or a plan limit is hit.",
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
      "Send any of caption, captions, platforms, media and schedule_at; the others stay as they are. The post as edited is checked by the rules of POST /posts, in the same order, and nothing changes when one refuses it. schedule_at on a draft schedules it; schedule_at: null makes a scheduled post a draft again. A changed due time writes post.scheduled. An edit racing the scheduler either lands before the post publishes (it publishes as edited) or answers 409.",
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
  defineRoute({
    method: "GET",
    path: "/accounts",
    operationId: "listAccounts",
    tag: "Accounts",
    summary: "The connected social profiles",
    auth: true,
    responses: { 200: { description: "Connected accounts, in network order.", schema: AccountList } },
    handler: listAccounts,
  }),
  defineRoute({
    method: "POST",
    path: "/accounts/connect",
    operationId: "connectAccount",
    tag: "Accounts",
    summary: "Connect a network account (in sandbox, at once)",
    description:
      "Answers 201 for a new account, 200 when it was already connected (reconnecting it). With a live key, a network that connects through OAuth (x, …) answers 201 with the network's authorize URL instead; the account is connected when the network sends the user back to GET /accounts/callback/{platform}.",
    auth: true,
    body: { schema: ConnectAccountBody },
    responses: {
      201: {
        description:
          "The connected account; or, for an OAuth network with a live key, where to grant access.",
        schema: z.union([Account, OAuthConnectStart]),
      },
      200: { description: "The account was already connected and is reconnected.", schema: Account },
      400: {
        description:
          "The plan's connected profiles are all in use; or, with a live key, the network refused the credentials, or this server cannot connect that network.",
      },
      502: { description: "Live key: the network could not be reached to check the credentials." },
      503: {
        description:
          "Live key: this server has no secret key to keep network credentials with (SOCIALPUB_SECRET_KEY).",
      },
    },
    handler: connectAccount,
  }),
  defineRoute({
    method: "GET",
    path: "/accounts/callback/{platform}",
    operationId: "finishOAuthConnect",
    tag: "Accounts",
    summary: "Where an OAuth network sends the user back (a browser page)",
    description:
      "Takes no API key: the single-use `state` from POST /accounts/connect, 15 minutes long, names the user. Trades `code` for tokens, stores them sealed, sends account.connected, and answers a small HTML page saying the account is connected, or why not (the user declined, the link was used or expired, the network refused).",
    auth: false,
    page: true,
    params: platformParam,
    responses: {
      200: { description: "HTML: the account is connected." },
      400: { description: "HTML: nothing was connected, and why." },
      404: { description: "HTML: this server does not connect that network through OAuth." },
      502: { description: "HTML: the network could not be reached to finish." },
    },
    handler: finishOAuthConnect,
  }),
  defineRoute({
    method: "DELETE",
    path: "/accounts/{platform}",
    operationId: "disconnectAccount",
    tag: "Accounts",
    summary: "Disconnect a network account",
    auth: true,
    params: platformParam,
    responses: { 200: { description: "Disconnected.", schema: DeleteResult }, 404: accountNotFound },
    handler: disconnectAccount,
  }),
  defineRoute({
    method: "GET",
    path: "/analytics",
    operationId: "getAnalytics",
    tag: "Analytics",
    summary: "Reach and engagement across published posts, per network",
    auth: true,
    responses: { 200: { description: "The analytics summary.", schema: Analytics } },
    handler: getAnalytics,
  }),
  defineRoute({
    method: "POST",
    path: "/sandbox/metrics",
    operationId: "reportSandboxMetrics",
    tag: "Sandbox",
    summary: "Report a sandbox network's figures for a published post (test keys only)",
    auth: true,
    body: { schema: SandboxMetricsBody },
    responses: {
      200: { description: "The network's result with its figures.", schema: Target },
      400: { description: "The post does not target the network, or the network did not publish it." },
      403: { description: "A live key was used." },
      404: notFound,
    },
    handler: reportSandboxMetrics,
  }),
  defineRoute({
    method: "POST",
    path: "/media",
    operationId: "createMedia",
    tag: "Media",
    summary: "Upload an image or video (raw bytes), or register one by URL; reuse it by its med_ id",
    description:
      "Send the bytes with an image/… or video/… Content-Type (at most 1 MiB; larger media by URL), or JSON {url, type?}. Answers status ready at once and writes media.processed.",
    auth: true,
    body: { schema: MediaUrlBody },
    upload: { types: MEDIA_TYPE, description: "an image/… or video/… type for an upload" },
    responses: {
      201: { description: "The media.", schema: Media },
      400: {
        description:
          "The URL is not http(s), its type cannot be told, or the upload is empty or its bytes are not an image or video.",
      },
    },
    handler: createMedia,
  }),
  defineRoute({
    method: "GET",
    path: "/media/{id}/content/{token}",
    operationId: "getMediaContent",
    tag: "Media",
    summary:
      "The bytes of an uploaded image or video, at the URL POST /media answered (no key: networks fetch it)",
    description:
      "The token is 192 random bits given only in the upload's url: the URL is the capability, so share it as you would a key. A wrong token is 404.",
    auth: false,
    // The bytes are in the media storage (files), not the store.
    storeUnavailable: false,
    params: mediaContent,
    responses: {
      200: { description: "The bytes, with their Content-Type.", bytes: MEDIA_BYTES },
      404: { description: "No upload with that id and token (`Not found.`)." },
    },
    handler: getMediaContent,
  }),
  defineRoute({
    method: "GET",
    path: "/media/{id}/content",
    operationId: "getOwnMediaContent",
    tag: "Media",
    summary: "The bytes of one of your own uploads, by its med_ id (with a key)",
    auth: true,
    params: mediaId,
    responses: {
      200: { description: "The bytes, with their Content-Type.", bytes: MEDIA_BYTES },
      404: { description: "No upload with that id belongs to the account (`Not found.`)." },
    },
    handler: getOwnMediaContent,
  }),
  defineRoute({
    method: "PATCH",
    path: "/sandbox/accounts/{platform}",
    operationId: "setSandboxAccountHealth",
    tag: "Sandbox",
    summary: "Set a sandbox account's health, as a network would (test keys only)",
    auth: true,
    params: platformParam,
    body: { schema: SandboxAccountBody },
    responses: {
      200: { description: "The account.", schema: Account },
      403: { description: "A live key was used." },
      404: accountNotFound,
    },
    handler: setSandboxAccountHealth,
  }),
  defineRoute({
    method: "POST",
    path: "/sandbox/accounts/{platform}",
    operationId: "setSandboxAccountHealthByPost",
    tag: "Sandbox",
    summary: "Set a sandbox account's health (POST form of the PATCH; test keys only)",
    description:
      "The same as PATCH /sandbox/accounts/{platform}, for clients that only send POST. Turning reauth_required makes publishing to that network fail and writes account.disconnected.",
    auth: true,
    params: platformParam,
    body: { schema: SandboxAccountBody },
    responses: {
      200: { description: "The account.", schema: Account },
      403: { description: "A live key was used." },
      404: accountNotFound,
    },
    handler: setSandboxAccountHealth,
  }),
  defineRoute({
    method: "POST",
    path: "/webhooks",
    operationId: "createWebhook",
    tag: "Webhooks",
    summary: "Register an endpoint for events; the signing secret is shown only in this answer",
    auth: true,
    body: { schema: CreateWebhookBody },
    responses: {
      201: { description: "The endpoint with its secret.", schema: CreatedWebhookEndpoint },
      400: {
        description: "The URL is not http(s), resolves to a private address, or too many endpoints exist.",
      },
    },
    handler: createWebhook,
    replayKept: openKeptWebhookAnswer,
  }),
  defineRoute({
    method: "GET",
    path: "/webhooks",
    operationId: "listWebhooks",
    tag: "Webhooks",
    summary: "The account's webhook endpoints (without secrets)",
    auth: true,
    responses: { 200: { description: "The endpoints.", schema: WebhookEndpointList } },
    handler: listWebhooks,
  }),
  defineRoute({
    method: "GET",
    path: "/webhooks/{id}",
    operationId: "getWebhook",
    tag: "Webhooks",
    summary: "One webhook endpoint (without its secret)",
    auth: true,
    params: webhookId,
    responses: { 200: { description: "The endpoint.", schema: WebhookEndpoint }, 404: webhookNotFound },
    handler: getWebhook,
  }),
  defineRoute({
    method: "PATCH",
    path: "/webhooks/{id}",
    operationId: "updateWebhook",
    tag: "Webhooks",
    summary: "Change an endpoint's URL, events or status; re-enable one disabled after a 410 Gone",
    description:
      'Send any of url, events and status; the others stay as they are, and so does the secret. {"status": "enabled"} makes a disabled endpoint receive events again: the events written from then on (what it was owed when it was disabled stays dropped; resend an event to send it again).',
    auth: true,
    params: webhookId,
    body: { schema: UpdateWebhookBody },
    responses: {
      200: { description: "The endpoint as updated (without its secret).", schema: WebhookEndpoint },
      400: {
        description:
          "Nothing to change was sent, the URL is not http(s) or resolves to a private address, or events is empty or names an unknown type.",
      },
      404: webhookNotFound,
    },
    handler: updateWebhook,
  }),
  defineRoute({
    method: "DELETE",
    path: "/webhooks/{id}",
    operationId: "deleteWebhook",
    tag: "Webhooks",
    summary: "Delete a webhook endpoint; nothing more is sent to it",
    auth: true,
    params: webhookId,
    responses: { 200: { description: "Deleted.", schema: DeleteResult }, 404: webhookNotFound },
    handler: deleteWebhook,
  }),
  defineRoute({
    method: "POST",
    path: "/webhooks/{id}/test",
    operationId: "testWebhook",
    tag: "Webhooks",
    summary: "Queue a test event for this endpoint",
    auth: true,
    params: webhookId,
    body: { schema: TestWebhookBody, optional: true },
    responses: {
      202: { description: "The queued event.", schema: WebhookEvent },
      404: webhookNotFound,
      409: {
        description:
          'The endpoint is disabled (it answered 410 Gone, or was disabled with PATCH); enable it with PATCH /webhooks/{id} {"status": "enabled"}.',
      },
    },
    handler: testWebhook,
  }),
  defineRoute({
    method: "GET",
    path: "/webhooks/{id}/attempts",
    operationId: "listWebhookAttempts",
    tag: "Webhooks",
    summary: "The endpoint's delivery log: every attempt, newest first",
    description:
      "Each attempt with its event, time, response status (null when none came), duration, error and when the delivery was due next. limit and the Link header's cursor work as on GET /posts.",
    auth: true,
    params: webhookId,
    query: ListAttemptsQuery,
    responses: {
      200: {
        description: 'A page of attempts; `Link: <…>; rel="next"` when more exist.',
        schema: DeliveryAttemptList,
      },
      400: { description: "limit is not a positive integer, or cursor is not valid." },
      404: webhookNotFound,
    },
    handler: listWebhookAttempts,
  }),
  defineRoute({
    method: "POST",
    path: "/webhooks/{id}/events/{event_id}/resend",
    operationId: "resendWebhookEvent",
    tag: "Webhooks",
    summary: "Send one of the account's events to this endpoint again, now",
    description:
      "A new delivery of the same event (same webhook-id, so receivers can tell it is the same event), due at once and retried on the usual schedule.",
    auth: true,
    params: webhookEventIds,
    responses: {
      202: { description: "The delivery is queued.", schema: ResendResult },
      404: {
        description: "No such endpoint (`Webhook not found.`) or event (`Event not found.`) in the account.",
      },
      409: {
        description:
          'The endpoint is disabled (it answered 410 Gone, or was disabled with PATCH); enable it with PATCH /webhooks/{id} {"status": "enabled"}.',
      },
    },
    handler: resendWebhookEvent,
  }),
  defineRoute({
    method: "GET",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    tag: "Service",
    summary: "This document",
    auth: false,
    storeUnavailable: false,
    responses: { 200: { description: "The OpenAPI 3.1 document.", schema: OpenApiDocument } },
    handler: getOpenApi,
  }),
  defineRoute({
    method: "GET",
    path: "/healthz",
    root: true,
    operationId: "getHealth",
    tag: "Service",
    summary: "Answers 200 when the store is reachable",
    auth: false,
    storeUnavailable: false,
    responses: {
      200: {
        description: "The service and its store are up.",
        schema: z.object({ status: z.literal("ok") }),
      },
      503: { description: "The store is not reachable." },
    },
    handler: getHealth,
  }),
];
