import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
} from "@socialpub/core";
import { currentStep, saveAttemptStep } from "../common/attempt-step.ts";
import type { YouTubeApiConfig } from "./api.ts";
import { videoText } from "./text.ts";
import { openSession, sendBytes, sessionState } from "./upload.ts";

/**
 * The largest video the server fetches and uploads. YouTube takes up to 256 GB; the service holds a
 * post's media in memory while it publishes, so this server stops well short of that.
 */
export const YOUTUBE_MAX_VIDEO_BYTES = 256 * 1024 * 1024;

export const youtubePermalink = (id: string) => `https://www.youtube.com/watch?v=${id}`;

export interface YouTubePublishOptions {
  /** Whether Google has audited the app: unaudited projects can only upload private videos. */
  audited: boolean;
  /** What one PUT of the upload sends at most (a multiple of 256 KiB). */
  chunkBytes: number;
}

/**
 * Uploads the post's video through a resumable session: the session's address is saved on the target
 * as soon as YouTube opens it, so the next attempt (a retry, or the first after a restart) asks the
 * session where it stands instead of starting over: all bytes in → that video is the post; some →
 * the rest is sent; the session expired → nothing was made, a new one is opened. A second video is
 * never made for one post.
 */
export async function publishYouTube(
  api: YouTubeApiConfig,
  options: YouTubePublishOptions,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const file = onlyVideo(post.media);
  const token = String(account.credentials.access_token ?? "");
  const size = file.bytes.length;
  const saved = currentStep(post);
  let session =
    typeof saved?.upload_session === "string" && saved.size === size ? saved.upload_session : null;
  let offset = 0;
  if (session) {
    const state = await sessionState(api, token, session, size, post.signal);
    if (state.kind === "done") return published(state.video);
    if (state.kind === "gone") session = null;
    else offset = state.received;
  }
  if (!session) {
    const { title, description } = videoText(post.text, file.filename.replace(/\.[^.]*$/, ""));
    const metadata = {
      snippet: { title, description },
      status: { privacyStatus: options.audited ? "public" : "private" },
    };
    session = await openSession(api, token, metadata, file, post.signal);
    await saveAttemptStep(post, { upload_session: session, size, opened_at: api.now() });
  }
  return published(await sendBytes(api, token, session, file, offset, options.chunkBytes, post.signal));
}

function published(video: Record<string, unknown>): PublishedPost {
  const id = String(video.id);
  const status = (video.status ?? {}) as {
    uploadStatus?: unknown;
    failureReason?: unknown;
    rejectionReason?: unknown;
  };
  if (status.uploadStatus === "failed" || status.uploadStatus === "rejected") {
    // The video exists on the channel, unusable: a new upload would fail the same way.
    const why = String(status.failureReason ?? status.rejectionReason ?? status.uploadStatus);
    throw new NetworkError(
      "youtube",
      "refused",
      `YouTube could not use the uploaded file as a video (YouTube said: ${status.uploadStatus}: ${why}); check the media is a playable video. The failed upload is video ${id} on the channel.`,
    );
  }
  return { id, permalink: youtubePermalink(id) };
}

function onlyVideo(media: readonly MediaFile[]): MediaFile {
  const refuse = (why: string) => new NetworkError("youtube", "refused", `YouTube: ${why}`);
  if (media.length === 0) throw refuse("a video is needed; add one to the post as its media.");
  if (media.length > 1) throw refuse("this server uploads one video per post; the post has more media.");
  const file = media[0]!;
  if (!file.contentType.startsWith("video/")) {
    throw refuse(
      `videos only; the post's media is ${file.contentType}. Give a video (MP4, MOV, WebM, …) as the media.`,
    );
  }
  if (file.bytes.length === 0) throw refuse("the post's video is empty.");
  if (file.bytes.length > YOUTUBE_MAX_VIDEO_BYTES) {
    throw refuse("this server uploads videos up to 256 MiB; the post's video is larger.");
  }
  return file;
}
