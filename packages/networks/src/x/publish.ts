import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
} from "@socialpub/core";
import { type XApiConfig, xCall } from "./api.ts";
import { findXPost } from "./find-published.ts";
import { planMedia } from "./media-plan.ts";
import { fitX, xPermalink } from "./post-text.ts";
import { markPosting, sentWithUpload, uploadResumably } from "./resumable-media.ts";

/** Skew allowed between our clock and X's when reading back a post sent at a time we noted. */
const CLOCK_SKEW_MS = 60_000;

export interface XPublishOptions {
  /** What one append of a chunked upload sends at most. */
  segmentBytes: number;
}

/**
 * Uploads the post's media — images in one request each (POST /2/media/upload), a video or an animated
 * GIF through the chunked upload, saved on the target so it resumes — then creates the post
 * (POST /2/tweets) with their media ids. An upload that fails leaves nothing posted, so its failure is
 * retried like any other; the post itself, once sent without an answer, has an unknown outcome.
 */
export async function publishX(
  api: XApiConfig,
  options: XPublishOptions,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const plan = planMedia(post.media);
  const mediaIds: string[] = [];
  if (plan.kind === "chunked") {
    const { file, category } = plan;
    const sentAt = sentWithUpload(post, file);
    if (sentAt !== null) {
      // An earlier attempt sent the post and its answer was lost: X is asked first, by its timeline.
      const lost = { key: post.key, text: post.text, since: sentAt - CLOCK_SKEW_MS };
      const found = await findXPost(api, account, lost, post.signal);
      if (found) return found;
      await markPosting(post, file, false, api.now());
    }
    mediaIds.push(
      await uploadResumably({ api, token, file, category, segmentBytes: options.segmentBytes, post }),
    );
    await markPosting(post, file, true, api.now());
  } else {
    for (const file of plan.files) mediaIds.push(await uploadImage(api, token, file, post.signal));
  }
  const body = { text: fitX(post.text), ...(mediaIds.length > 0 && { media: { media_ids: mediaIds } }) };
  let answer: { data?: { id?: string } };
  try {
    answer = (await xCall(api, token, "POST", "/2/tweets", { json: body }, post.signal)) as typeof answer;
  } catch (error) {
    // X answered with a refusal: nothing was posted, so the upload may be posted by the next attempt.
    if (plan.kind === "chunked" && error instanceof NetworkError && error.status !== undefined) {
      await markPosting(post, plan.file, false, api.now());
    }
    throw error;
  }
  const id = answer?.data?.id;
  if (typeof id !== "string") {
    throw new NetworkError("x", "unknown", "X answered the post without its id; check the account.");
  }
  return { id, permalink: xPermalink(id) };
}

async function uploadImage(
  api: XApiConfig,
  token: string,
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
