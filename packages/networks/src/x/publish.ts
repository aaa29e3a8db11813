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

/** X takes images up to 5 MB through the one-request upload. */
export const X_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = /^image\/(jpeg|png|gif|webp)$/;

/** The post's permalink: X resolves it to the account's own address. */
export const xPermalink = (id: string) => `https://x.com/i/web/status/${id}`;

/**
 * Uploads the post's images (POST /2/media/upload, one request each), then creates the post
 * (POST /2/tweets) with their media ids. An upload that fails leaves nothing posted, so its failure is
 * retried like any other; the post itself, once sent without an answer, has an unknown outcome.
 */
export async function publishX(
  api: XApiConfig,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const mediaIds: string[] = [];
  for (const file of post.media) mediaIds.push(await uploadImage(api, token, file, post.signal));
  const body = { text: fitX(post.text), ...(mediaIds.length > 0 && { media: { media_ids: mediaIds } }) };
  const answer = (await xCall(api, token, "POST", "/2/tweets", { json: body }, post.signal)) as {
    data?: { id?: string };
  };
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
  if (!IMAGE_TYPES.test(file.contentType)) {
    throw new NetworkError(
      "x",
      "refused",
      `X: this server uploads images (JPEG, PNG, GIF, WebP) to X; ${file.contentType} is not one of them.`,
    );
  }
  if (file.bytes.length > X_MAX_IMAGE_BYTES) {
    throw new NetworkError("x", "refused", "X takes images up to 5 MB; the post's image is larger.");
  }
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
