import { type MediaFile, NetworkError, type PublishedPost } from "@socialpub/core";
import { type FacebookApiConfig, graphCall } from "./api.ts";

/*
 * A Page video, as Meta's Video API documents it: POST /{page-id}/videos with the file in `source`
 * (multipart, in the same request) and the post's text as its `description`; Graph answers the video's
 * id, and the video is the Page's post (GET /{video-id}?fields=permalink_url gives its address, relative
 * to facebook.com). Facebook processes the video after it answers; the post shows once it is ready,
 * so there is nothing more to wait for or to publish.
 */

/**
 * The largest video this server uploads to a Page. Facebook takes far larger files through its
 * resumable upload; the service holds a post's media in memory while it publishes, so it stops at
 * 256 MiB, as it does for YouTube and X.
 */
export const FACEBOOK_MAX_VIDEO_BYTES = 256 * 1024 * 1024;
/** The formats Meta lists first for Page videos; it takes more, but these are the ones it recommends. */
const VIDEO_TYPES = /^video\/(mp4|quicktime|webm|x-m4v)$/;

export async function publishVideo(
  api: FacebookApiConfig,
  token: string,
  page: string,
  text: string,
  video: MediaFile,
  signal: AbortSignal,
): Promise<PublishedPost> {
  const refuse = (why: string) => new NetworkError("facebook", "refused", `Facebook: ${why}`);
  if (!VIDEO_TYPES.test(video.contentType)) {
    throw refuse(
      `this server posts MP4, MOV and WebM videos to a Page; the post's video is ${video.contentType}.`,
    );
  }
  if (video.bytes.length > FACEBOOK_MAX_VIDEO_BYTES) {
    throw refuse("this server uploads videos up to 256 MiB; the post's video is larger.");
  }
  const form = new FormData();
  form.set("description", text);
  form.set("source", new Blob([new Uint8Array(video.bytes)], { type: video.contentType }), video.filename);
  const answer = (await graphCall(api, token, "POST", `/${page}/videos`, form, signal)) as {
    id?: unknown;
  } | null;
  if (typeof answer?.id !== "string") {
    throw new NetworkError(
      "facebook",
      "unknown",
      "Facebook answered the video without its id; check the Page.",
    );
  }
  const id = answer.id;
  // The video is on the Page whatever happens next: its address is asked for once, and guessed if lost.
  const read = (await graphCall(api, token, "GET", `/${id}?fields=permalink_url`, null, signal, true).catch(
    () => null,
  )) as { permalink_url?: unknown } | null;
  const path = typeof read?.permalink_url === "string" ? read.permalink_url : `/watch/?v=${id}`;
  return { id, permalink: new URL(path, "https://www.facebook.com").toString() };
}
