import {
  type AccountSession,
  type MediaFile,
  measure,
  NETWORK_RULES,
  NetworkError,
  type PublishedPost,
  type PublishInput,
  truncate,
} from "@socialpub/core";
import { type XApiConfig, xCall } from "./api.ts";
import { planMedia } from "./media-plan.ts";
import { markPosting, uploadResumably } from "./resumable-media.ts";

/** The post's permalink: X resolves it to the account's own address. */
export const xPermalink = (id: string) => `https://x.com/i/web/status/${id}`;

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
    mediaIds.push(
      await uploadResumably({ api, token, file, category, segmentBytes: options.segmentBytes, post }),
    );
    await markPosting(post, file, true);
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
      await markPosting(post, plan.file, false);
    }
    throw error;
  }
  const id = answer?.data?.id;
  if (typeof id !== "string") {
    throw new NetworkError("x", "unknown", "X answered the post without its id; check the account.");
  }
  return { id, permalink: xPermalink(id) };
}

/**
 * The text as X weighs it (a URL 23, most non-Latin characters 2). The service has already fitted the
 * caption by the same rule; a text that still weighs more (given to the adapter directly) is cut the
 * same way rather than refused by X.
 */
export function fitX(text: string): string {
  const limit = NETWORK_RULES.x.textLimit;
  return measure(text, "weighted") <= limit ? text : truncate(text, limit, "weighted");
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
