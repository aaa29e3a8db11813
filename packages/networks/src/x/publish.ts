import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
  publishThread,
  type SentPart,
  type ThreadSteps,
} from "@socialpub/core";
import { type XApiConfig, type XAuth, xCall } from "./api.ts";
import { findOnTimeline, posterOf, type XPoster } from "./find-published.ts";
import { planMedia } from "./media-plan.ts";
import { fitX, xPermalink } from "./post-text.ts";
import { markPosting, sentWithUpload, uploadResumably } from "./resumable-media.ts";

/** Skew allowed between our clock and X's when reading back a post sent at a time we noted. */
const CLOCK_SKEW_MS = 60_000;
/** A poll the service gives without a duration runs a day, as X's own composer starts it. */
const DEFAULT_POLL_MINUTES = 1440;

export interface XPublishOptions {
  /** What one append of a chunked upload sends at most. */
  segmentBytes: number;
}

/** What goes into POST /2/tweets besides the text and media. */
interface PostExtras {
  reply?: { in_reply_to_tweet_id: string };
  poll?: { options: string[]; duration_minutes: number };
  reply_settings?: string;
}

/**
 * Publishes a post on X with the account's OAuth 2.0 token: see publishXAs.
 */
export function publishX(
  api: XApiConfig,
  options: XPublishOptions,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  return publishXAs(api, options, posterOf(account), post);
}

/**
 * Uploads the post's media — images in one request each (POST /2/media/upload), a video or an animated
 * GIF through the chunked upload, saved on the target so it resumes, images and a GIF with their alt
 * text (POST /2/media/metadata; X takes none for a video) — then creates the post (POST /2/tweets) with their media ids, its poll and
 * who may reply (options.x.reply_settings). An upload that fails leaves nothing posted, so its failure
 * is retried like any other; the post itself, once sent without an answer, has an unknown outcome.
 *
 * A thread (`post.thread`) or a first comment goes through publishThread: each later part a reply to the
 * part before (reply.in_reply_to_tweet_id), the first comment a reply to the first part, each part's
 * progress saved so that a part whose answer was lost is looked for on the account's timeline (with its
 * replies, in the thread's conversation) before it is sent again.
 */
export async function publishXAs(
  api: XApiConfig,
  options: XPublishOptions,
  poster: XPoster,
  post: PublishInput,
): Promise<PublishedPost> {
  const first = firstPartExtras(post);
  if ((post.thread?.length ?? 0) === 0 && !post.firstComment) {
    return sendPart(api, options, poster, post, first, false);
  }
  return publishThread("x", post, xThreadSteps(api, options, poster, post, first));
}

/** The first part's poll and reply settings; a poll beside media is refused as X refuses it. */
function firstPartExtras(post: PublishInput): PostExtras {
  const extras: PostExtras = {};
  if (post.poll) {
    if (post.media.length > 0) {
      throw new NetworkError(
        "x",
        "refused",
        "X: a post takes a poll or media, not both; remove the media or the poll.",
      );
    }
    extras.poll = {
      options: [...post.poll.options],
      duration_minutes: post.poll.durationMinutes ?? DEFAULT_POLL_MINUTES,
    };
  }
  const replySettings = (post.options?.x as { reply_settings?: unknown } | undefined)?.reply_settings;
  if (typeof replySettings === "string") extras.reply_settings = replySettings;
  return extras;
}

function xThreadSteps(
  api: XApiConfig,
  options: XPublishOptions,
  poster: XPoster,
  post: PublishInput,
  first: PostExtras,
): ThreadSteps {
  return {
    send(part, parent) {
      // The part as a post of its own, its step the part's own (an upload in progress, when it was sent).
      const view: PublishInput = {
        ...post,
        text: part.text,
        media: part.media,
        step: part.step,
        saveStep: part.saveStep,
      };
      const extras = parent === null ? first : { reply: { in_reply_to_tweet_id: parent.id } };
      return sendPart(api, options, poster, view, extras, true);
    },
    async find(part, parent, root) {
      // The time is saved right before POST /2/tweets: without it the part was never sent (its upload
      // failed, or X refused it), so it is not out there.
      const sentAt = typeof part.step?.sent_at === "number" ? part.step.sent_at : null;
      if (sentAt === null) return null;
      const found = await findOnTimeline(
        api,
        poster,
        {
          text: part.text,
          since: sentAt - CLOCK_SKEW_MS,
          replies: parent !== null,
          ...(parent !== null && { sinceId: parent.id }),
          ...(root !== null && { conversation: root.id }),
        },
        post.signal,
      );
      return found && { id: found.id, permalink: found.permalink };
    },
    async comment(text, root) {
      const body = { text: fitX(text), reply: { in_reply_to_tweet_id: root.id } };
      return createPost(api, poster.auth, body, post.signal);
    },
  };
}

/**
 * Sends one post: its media uploaded (with alt text), then POST /2/tweets. `inThread`: the part's step is
 * publishThread's, which has looked for a lost send on the timeline already, and its send time is saved
 * so that a later look knows where to start.
 */
async function sendPart(
  api: XApiConfig,
  options: XPublishOptions,
  poster: XPoster,
  post: PublishInput,
  extras: PostExtras,
  inThread: boolean,
): Promise<SentPart> {
  const token = poster.auth;
  const plan = planMedia(post.media);
  const mediaIds: string[] = [];
  if (plan.kind === "chunked") {
    const { file, category } = plan;
    const sentAt = sentWithUpload(post, file);
    if (sentAt !== null) {
      if (!inThread) {
        // An earlier attempt sent the post and its answer was lost: X is asked first, by its timeline.
        const lost = { text: post.text, since: sentAt - CLOCK_SKEW_MS, replies: false };
        const found = await findOnTimeline(api, poster, lost, post.signal);
        if (found) return found;
      }
      await markPosting(post, file, false, api.now());
    }
    const id = await uploadResumably({
      api,
      token,
      file,
      category,
      segmentBytes: options.segmentBytes,
      post,
    });
    // X's media metadata takes alt text for images and GIFs only: a video's is not sent.
    if (category === "tweet_gif") await describeMedia(api, token, id, file, post.signal);
    mediaIds.push(id);
    await markPosting(post, file, true, api.now());
  } else {
    for (const file of plan.files) {
      const id = await uploadImage(api, token, file, post.signal);
      await describeMedia(api, token, id, file, post.signal);
      mediaIds.push(id);
    }
    if (inThread) await post.saveStep({ sent_at: api.now() });
  }
  const body = {
    text: fitX(post.text),
    ...(mediaIds.length > 0 && { media: { media_ids: mediaIds } }),
    ...extras,
  };
  try {
    return await createPost(api, token, body, post.signal);
  } catch (error) {
    // X answered with a refusal: nothing was posted, so the upload may be posted by the next attempt.
    if (plan.kind === "chunked" && error instanceof NetworkError && error.status !== undefined) {
      await markPosting(post, plan.file, false, api.now());
    }
    throw error;
  }
}

async function createPost(
  api: XApiConfig,
  token: XAuth,
  body: Record<string, unknown>,
  signal: AbortSignal,
): Promise<SentPart> {
  const answer = (await xCall(api, token, "POST", "/2/tweets", { json: body }, signal)) as {
    data?: { id?: string };
  };
  const id = answer?.data?.id;
  if (typeof id !== "string") {
    throw new NetworkError("x", "unknown", "X answered the post without its id; check the account.");
  }
  return { id, permalink: xPermalink(id) };
}

async function uploadImage(
  api: XApiConfig,
  token: XAuth,
  file: MediaFile,
  signal: AbortSignal,
): Promise<string> {
  const form = new FormData();
  form.set("media", new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.filename);
  form.set("media_category", "tweet_image");
  // Nothing is posted by an upload: one that went unanswered is simply made again.
  const answer = (await xCall(api, token, "POST", "/2/media/upload", { form }, signal, true)) as {
    data?: { id?: string };
  };
  const id = answer?.data?.id;
  if (typeof id !== "string")
    throw new NetworkError("x", "retry", "X answered the media upload without its id.");
  return id;
}

/**
 * Gives an uploaded file its alt text (POST /2/media/metadata, `alt_text` up to 1,000 characters), before
 * a post names it. Setting it again sets the same text, so an unanswered call is simply made again.
 */
async function describeMedia(
  api: XApiConfig,
  token: XAuth,
  id: string,
  file: MediaFile,
  signal: AbortSignal,
): Promise<void> {
  const alt = file.alt?.trim();
  if (!alt) return;
  const body = { id, metadata: { alt_text: { text: [...alt].slice(0, 1000).join("") } } };
  await xCall(api, token, "POST", "/2/media/metadata", { json: body }, signal, true);
}
