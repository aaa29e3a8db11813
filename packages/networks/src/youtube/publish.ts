import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
  type PublishStep,
  publishThread,
  type SentPart,
} from "@socialpub/core";
import { currentStep, saveAttemptStep } from "../common/attempt-step.ts";
import { type YouTubeApiConfig, youtubeError, youtubeSend } from "./api.ts";
import { noAngles, videoDescription, videoText } from "./text.ts";
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
 * never made for one post. The options (title, privacy, tags, category_id, made_for_kids) go in the
 * video's metadata. A first comment is the channel's top-level comment on the new video
 * (commentThreads.insert, which needs the youtube.force-ssl scope), through publishThread, which keeps
 * its outcome in the step so a retry never comments twice.
 */
export async function publishYouTube(
  api: YouTubeApiConfig,
  options: YouTubePublishOptions,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const file = onlyVideo(post.media);
  const token = String(account.credentials.access_token ?? "");
  const metadata = metadataOf(post, file, options.audited);
  const upload = (step: PublishStep | null, save: (step: PublishStep) => Promise<void>) =>
    uploadVideo(api, options, token, file, metadata, step, save, post.signal);
  if (!post.firstComment) return upload(currentStep(post), (step) => saveAttemptStep(post, step));
  // What this attempt saved (a run again after a token refresh sees it), not only what it began with.
  const tracked: PublishInput = {
    ...post,
    step: currentStep(post),
    saveStep: (step) => saveAttemptStep(post, step),
  };
  return publishThread("youtube", tracked, {
    send: async (part) => toSent(await upload(part.step, part.saveStep)),
    // The video exists only once its last byte is in: a saved session says whether it is; without
    // one, that attempt stopped before anything was sent.
    async find(part) {
      const session = sessionOf(part.step, file);
      if (!session) return null;
      const state = await sessionState(api, token, session, file.bytes.length, post.signal);
      return state.kind === "done" ? toSent(published(state.video)) : null;
    },
    comment: (text, root) => commentOn(api, token, root.id, text, post.signal),
  });
}

const toSent = (video: PublishedPost): SentPart => ({ id: video.id, permalink: video.permalink });

/** The session a saved step names for this file, or null. */
function sessionOf(step: PublishStep | null, file: MediaFile): string | null {
  return typeof step?.upload_session === "string" && step.size === file.bytes.length
    ? step.upload_session
    : null;
}

async function uploadVideo(
  api: YouTubeApiConfig,
  options: YouTubePublishOptions,
  token: string,
  file: MediaFile,
  metadata: VideoMetadata,
  saved: PublishStep | null,
  save: (step: PublishStep) => Promise<void>,
  signal: AbortSignal,
): Promise<PublishedPost> {
  const size = file.bytes.length;
  let session = sessionOf(saved, file);
  let offset = 0;
  if (session) {
    const state = await sessionState(api, token, session, size, signal);
    if (state.kind === "done") return published(state.video);
    if (state.kind === "gone") session = null;
    else offset = state.received;
  }
  if (!session) {
    session = await openSession(api, token, metadata, file, signal);
    await save({ upload_session: session, size, opened_at: api.now() });
  }
  return published(await sendBytes(api, token, session, file, offset, options.chunkBytes, signal));
}

interface VideoMetadata {
  snippet: { title: string; description: string; tags?: string[]; categoryId?: string };
  status: { privacyStatus: string; selfDeclaredMadeForKids?: boolean };
}

/**
 * The video's snippet and status: the title from `options.title` (the whole text then its
 * description) or the text's first line; `options.privacy` once Google has audited the project (until
 * then YouTube locks every upload to private, so private is asked for); tags, category and whether it
 * is made for kids as the options say.
 */
function metadataOf(post: PublishInput, file: MediaFile, audited: boolean): VideoMetadata {
  const options = post.options ?? {};
  const fallback = file.filename.replace(/\.[^.]*$/, "");
  const chosen = typeof options.title === "string" && options.title.trim() !== "" ? options.title : null;
  const { title, description } = chosen
    ? { title: videoText(chosen, fallback).title, description: videoDescription(post.text) }
    : videoText(post.text, fallback);
  const privacy = typeof options.privacy === "string" ? options.privacy : "public";
  const tags = Array.isArray(options.tags) ? options.tags.map((tag) => noAngles(String(tag))) : [];
  return {
    snippet: {
      title,
      description,
      ...(tags.length > 0 && { tags }),
      ...(typeof options.category_id === "string" && { categoryId: options.category_id }),
    },
    status: {
      privacyStatus: audited ? privacy : "private",
      ...(typeof options.made_for_kids === "boolean" && { selfDeclaredMadeForKids: options.made_for_kids }),
    },
  };
}

interface CommentThreadAnswer {
  id?: unknown;
  snippet?: { topLevelComment?: { id?: unknown } };
}

/** The channel's top-level comment on its new video (commentThreads.insert). */
async function commentOn(
  api: YouTubeApiConfig,
  token: string,
  videoId: string,
  text: string,
  signal: AbortSignal,
): Promise<SentPart> {
  const answer = await youtubeSend(api, token, {
    method: "POST",
    url: "/youtube/v3/commentThreads?part=snippet",
    headers: { "content-type": "application/json; charset=UTF-8" },
    body: JSON.stringify({ snippet: { videoId, topLevelComment: { snippet: { textOriginal: text } } } }),
    signal,
    idempotent: false,
  });
  if (answer.status === 403 && /insufficientPermissions/.test(JSON.stringify(answer.body))) {
    throw new NetworkError(
      "youtube",
      "refused",
      "The channel's grant lacks youtube.force-ssl, which commenting needs; connect the account again and allow it (YouTube said: 403 insufficientPermissions).",
      { status: 403 },
    );
  }
  if (answer.status !== 200) throw youtubeError(answer, api.now());
  const thread = answer.body as CommentThreadAnswer | null;
  const id = thread?.snippet?.topLevelComment?.id ?? thread?.id;
  if (typeof id !== "string")
    throw new NetworkError("youtube", "unknown", "YouTube answered the comment without its id.");
  return { id, permalink: `${youtubePermalink(videoId)}&lc=${id}` };
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
