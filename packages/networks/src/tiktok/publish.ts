import { setTimeout as delay } from "node:timers/promises";
import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
} from "@socialpub/core";
import { type TikTokApiConfig, tiktokCall } from "./api.ts";
import { type CreatorInfo, queryCreator } from "./creator.ts";
import { refuseTooLong } from "./duration.ts";
import { photoInit } from "./photo.ts";
import { pullable } from "./pull.ts";
import { fetchStatus, type PublishStatus, statusFailure } from "./status.ts";
import { planChunks, uploadChunks } from "./upload.ts";

/*
 * A TikTok Direct Post in two steps: the creator is queried (privacy levels, interaction settings,
 * whether they may post now; options.tiktok's privacy_level and disable_* are checked against them), the post is started (POST /v2/post/publish/video/init/) and its video
 * sent, then its status is polled (POST /v2/post/publish/status/fetch/) until PUBLISH_COMPLETE or
 * FAILED. The publish_id is saved on the target as soon as TikTok answers it, so a retry or a restart
 * polls that post instead of starting a second one.
 */

export interface TikTokPublishConfig {
  api: TikTokApiConfig;
  /** Whether TikTok has audited the app: unaudited apps may post SELF_ONLY (private) only. */
  audited: boolean;
  /** Hosts verified in the app's settings, from which TikTok may pull media (PULL_FROM_URL). */
  verifiedDomains: readonly string[];
  /** Preferred chunk size of an upload (5 to 64 MB). */
  chunkBytes: number;
  /** How long one attempt polls a post TikTok is still processing before it lets go. */
  waitMs: number;
}

const VIDEO = /^video\/(mp4|quicktime|webm)$/;
const IMAGE = /^image\/(jpeg|webp)$/;
/** A post still processing after the attempt's wait is looked at again this much later. */
const RETRY_PROCESSING_MS = 30_000;
const POLL_DELAYS_MS = [0, 500, 1_000, 2_000, 4_000, 8_000];

export async function publishTikTok(
  config: TikTokPublishConfig,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const username = String(account.credentials.username ?? "");
  let publishId = await resumable(config, token, post);
  if (!publishId) {
    const creator = await queryCreator(config.api, token, post.signal);
    publishId = await start(config, token, creator, post);
  }
  const done = await waitUntilDone(config, token, publishId, post.signal);
  return publishedPost(publishId, done, username);
}

/** The saved publish to go on polling, or null when a new one must be started (none, or it cannot go out). */
async function resumable(
  config: TikTokPublishConfig,
  token: string,
  post: PublishInput,
): Promise<string | null> {
  const saved = post.step;
  const publishId = typeof saved?.publish_id === "string" ? saved.publish_id : null;
  if (!publishId) return null;
  const state = await fetchStatus(config.api, token, publishId, post.signal);
  if (state.status === "FAILED") {
    const failure = statusFailure(state);
    // A post TikTok gave up for a passing reason published nothing: a new one is started.
    if (failure.kind === "retry") return null;
    throw failure;
  }
  // An upload cut off before its last byte publishes nothing; TikTok lets it expire.
  const size = typeof saved?.video_size === "number" ? saved.video_size : 0;
  if (state.status === "PROCESSING_UPLOAD" && saved?.source === "FILE_UPLOAD" && state.uploadedBytes < size) {
    return null;
  }
  return publishId;
}

async function start(
  config: TikTokPublishConfig,
  token: string,
  creator: CreatorInfo,
  post: PublishInput,
): Promise<string> {
  const chosen = post.options ?? {};
  const privacy = privacyFor(
    config,
    creator,
    typeof chosen.privacy_level === "string" ? chosen.privacy_level : undefined,
  );
  const interactions = interactionsFor(creator, chosen);
  const media = post.media;
  if (media.length > 0 && media.every((m) => IMAGE.test(m.contentType))) {
    return photoInit(config, token, interactions, privacy, post);
  }
  const video = onlyVideo(media);
  refuseTooLong(video, creator);
  const pull = pullable(config, video);
  const plan = planChunks(video.bytes.length, config.chunkBytes);
  const body = {
    post_info: {
      title: post.text,
      privacy_level: privacy,
      ...interactions,
    },
    source_info: pull
      ? { source: "PULL_FROM_URL", video_url: video.url }
      : { source: "FILE_UPLOAD", ...plan },
  };
  // An init whose answer was lost publishes nothing while TikTok waits for the upload; one that pulls
  // from a URL may, so only that one is "outcome unknown".
  const data = await tiktokCall(config.api, token, "/v2/post/publish/video/init/", body, post.signal, !pull);
  const publishId = typeof data.publish_id === "string" ? data.publish_id : "";
  if (!publishId)
    throw new NetworkError("tiktok", "retry", "TikTok answered the post without its publish_id.");
  await post.saveStep({
    publish_id: publishId,
    source: pull ? "PULL_FROM_URL" : "FILE_UPLOAD",
    video_size: plan.video_size,
  });
  if (!pull) {
    const uploadUrl = typeof data.upload_url === "string" ? data.upload_url : "";
    if (!uploadUrl)
      throw new NetworkError("tiktok", "retry", "TikTok answered the post without its upload_url.");
    await uploadChunks(config.api.fetch, uploadUrl, video.bytes, video.contentType, plan, post.signal);
  }
  return publishId;
}

/**
 * The privacy level: `options.tiktok.privacy_level` when the creator is offered it (creator_info) and
 * the app may post with it; otherwise audited apps post publicly where the creator allows it, and
 * unaudited ones privately, the only way TikTok lets them post.
 */
export function privacyFor(
  config: Pick<TikTokPublishConfig, "audited">,
  creator: CreatorInfo,
  chosen?: string,
): string {
  if (chosen !== undefined) {
    if (!creator.privacyLevels.includes(chosen)) {
      throw new NetworkError(
        "tiktok",
        "refused",
        `TikTok does not offer this creator the privacy level ${chosen} now (offered: ${creator.privacyLevels.join(", ") || "none"}); set options.tiktok.privacy_level to one of them.`,
      );
    }
    if (!config.audited && chosen !== "SELF_ONLY") {
      throw new NetworkError(
        "tiktok",
        "refused",
        `TikTok lets an app it has not audited post privately only (SELF_ONLY), so options.tiktok.privacy_level ${chosen} cannot be used; leave it out, or set the server's TikTok audited setting once TikTok has audited the app.`,
      );
    }
    return chosen;
  }
  const wanted = config.audited ? "PUBLIC_TO_EVERYONE" : "SELF_ONLY";
  if (creator.privacyLevels.includes(wanted)) return wanted;
  if (config.audited && creator.privacyLevels.length > 0) return creator.privacyLevels[0]!;
  throw new NetworkError(
    "tiktok",
    "refused",
    `TikTok does not offer this creator ${wanted === "SELF_ONLY" ? "private (SELF_ONLY) posts, the only kind an unaudited app may make" : "any privacy level to post with"} (offered: ${creator.privacyLevels.join(", ") || "none"}).`,
  );
}

/** Whether others may comment on, duet and stitch the post, as TikTok's post_info takes them. */
export interface Interactions {
  disable_comment: boolean;
  disable_duet: boolean;
  disable_stitch: boolean;
}

/**
 * What the options ask (`disable_comment`, `disable_duet`, `disable_stitch`), where the creator's own
 * settings allow it: an interaction the creator has turned off in TikTok (creator_info) stays off
 * whatever the options say, as TikTok asks apps to show it.
 */
export function interactionsFor(
  creator: CreatorInfo,
  options: Readonly<Record<string, unknown>>,
): Interactions {
  return {
    disable_comment: creator.commentDisabled || options.disable_comment === true,
    disable_duet: creator.duetDisabled || options.disable_duet === true,
    disable_stitch: creator.stitchDisabled || options.disable_stitch === true,
  };
}

function onlyVideo(media: readonly MediaFile[]): MediaFile {
  const refuse = (why: string) => new NetworkError("tiktok", "refused", `TikTok: ${why}`);
  if (media.length === 0) throw refuse("every post needs a video (or JPEG/WebP photos).");
  if (media.length > 1) throw refuse("this server posts one video per TikTok post; the post has more media.");
  const video = media[0]!;
  if (!VIDEO.test(video.contentType)) {
    throw refuse(
      `TikTok takes MP4, WebM and MOV videos, or JPEG and WebP photos; ${video.contentType} is neither.`,
    );
  }
  return video;
}

/** Polls the post until TikTok has published it; gives the attempt up while TikTok still works. */
async function waitUntilDone(
  config: TikTokPublishConfig,
  token: string,
  publishId: string,
  signal: AbortSignal,
): Promise<PublishStatus> {
  const until = config.api.now() + config.waitMs;
  for (let i = 0; ; i++) {
    const state = await fetchStatus(config.api, token, publishId, signal);
    if (state.status === "PUBLISH_COMPLETE") return state;
    if (state.status === "FAILED") throw statusFailure(state);
    const wait = POLL_DELAYS_MS[Math.min(i + 1, POLL_DELAYS_MS.length - 1)]!;
    if (config.api.now() + wait > until) {
      throw new NetworkError(
        "tiktok",
        "retry",
        `TikTok is still processing the post (${state.status}); it is looked at again shortly.`,
        { retryAfterMs: RETRY_PROCESSING_MS },
      );
    }
    try {
      await delay(wait, undefined, { signal });
    } catch {
      throw new NetworkError("tiktok", "retry", "TikTok: stopped while the post was processed.");
    }
  }
}

/**
 * The post as the service keeps it. TikTok hands out the post's own id only once it is public (after
 * moderation); a private (SELF_ONLY) post has none, so its id is the publish_id and its link the
 * creator's profile.
 */
function publishedPost(publishId: string, state: PublishStatus, username: string): PublishedPost {
  const [postId] = state.postIds;
  const profile = `https://www.tiktok.com/@${username}`;
  if (postId) return { id: postId, permalink: `${profile}/video/${postId}` };
  return { id: publishId, permalink: username ? profile : "" };
}
