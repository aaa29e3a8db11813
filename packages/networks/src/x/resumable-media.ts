import { setTimeout as delay } from "node:timers/promises";
import { type MediaFile, NetworkError, type PublishInput, type PublishStep } from "@socialpub/core";
import { currentStep, saveAttemptStep } from "../common/attempt-step.ts";
import type { XApiConfig, XAuth } from "./api.ts";
import {
  appendSegments,
  finalizeUpload,
  initializeUpload,
  type Processing,
  type UploadCategory,
  uploadState,
} from "./chunked-upload.ts";

/*
 * A video or animated GIF for X, uploaded so that a retry or a restart goes on from where the last
 * attempt stood. The upload's id is saved on the target (post.saveStep; never a token) as soon as X
 * hands it out, with how far it got:
 *   appending → the segments are sent again to the same upload (a segment replaces itself) while X
 *               still holds it, else a new upload is opened;
 *   finalized → nothing is sent again: X is asked where processing stands, and the post is made once
 *               it has succeeded (an upload X has forgotten meanwhile is made again: nothing went out);
 *   posting   → the post was sent (at `sent_at`) and its answer lost: X may have made it. The post
 *               is looked for on the account's timeline first (publish.ts); one that is not there is
 *               sent again with the same upload. A step saved without `sent_at` gives no time to read
 *               back from, so that post is not sent again.
 */

/** How long one attempt waits for X to process a video before it lets go and is retried. */
const WAIT_MS = 40_000;
/** A video still processing after the attempt's wait is looked at again this much later. */
const RETRY_PROCESSING_MS = 30_000;
/** Bounds on X's check_after_secs advice, so a poll is neither a busy loop nor a long sleep. */
const MIN_POLL_MS = 1_000;
const MAX_POLL_MS = 10_000;

type Stage = "appending" | "finalized" | "posting";

export interface ResumableUpload {
  api: XApiConfig;
  token: XAuth;
  file: MediaFile;
  category: UploadCategory;
  segmentBytes: number;
  post: PublishInput;
}

/** Uploads the file (or resumes its saved upload) and waits until X has processed it; answers its id. */
export async function uploadResumably(upload: ResumableUpload): Promise<string> {
  const { api, token, file, post } = upload;
  const saved = savedUpload(post, file);
  if (saved?.stage === "posting" && saved.sentAt === null) {
    throw new NetworkError(
      "x",
      "refused",
      "X: outcome unknown: check the network (the post with this video was sent and X's answer was lost); it was not sent again, so the post cannot appear twice.",
    );
  }
  if (saved?.stage === "finalized") {
    const state = await uploadState(api, token, saved.id, post.signal);
    if (state.kind === "processing") return processed(upload, saved.id, state.processing);
  }
  const resumable = saved?.stage === "appending" && saved.expiresAt > api.now() + 60_000;
  const opened = resumable
    ? { id: saved.id, expiresAt: saved.expiresAt }
    : await initializeUpload(api, token, file, upload.category, post.signal);
  if (!resumable) await save(post, file, opened.id, opened.expiresAt, "appending");
  await appendSegments(api, token, opened.id, file, upload.segmentBytes, post.signal);
  const processing = await finalizeUpload(api, token, opened.id, post.signal);
  await save(post, file, opened.id, opened.expiresAt, "finalized");
  return processed(upload, opened.id, processing);
}

/**
 * Marks the upload's post as sent at `at` (before POST /2/tweets), and back as not sent when X answered
 * it with a refusal or it was not found on the timeline (nothing was posted, so the post may go out with
 * the same upload).
 */
export async function markPosting(
  post: PublishInput,
  file: MediaFile,
  sending: boolean,
  at: number,
): Promise<void> {
  const saved = savedUpload(post, file);
  if (!saved) return;
  await save(post, file, saved.id, saved.expiresAt, sending ? "posting" : "finalized", sending ? at : null);
}

/** When the post went out with the saved upload, if an earlier attempt sent it and kept the time. */
export function sentWithUpload(post: PublishInput, file: MediaFile): number | null {
  const saved = savedUpload(post, file);
  return saved?.stage === "posting" ? saved.sentAt : null;
}

async function save(
  post: PublishInput,
  file: MediaFile,
  id: string,
  expiresAt: number,
  stage: Stage,
  sentAt: number | null = null,
) {
  const step: PublishStep = {
    x_media: id,
    size: file.bytes.length,
    expires_at: expiresAt,
    stage,
    ...(sentAt !== null && { sent_at: sentAt }),
  };
  await saveAttemptStep(post, step);
}

function savedUpload(
  post: PublishInput,
  file: MediaFile,
): { id: string; expiresAt: number; stage: Stage; sentAt: number | null } | null {
  const step = currentStep(post);
  if (typeof step?.x_media !== "string" || step.size !== file.bytes.length) return null;
  const stage = step.stage;
  if (stage !== "appending" && stage !== "finalized" && stage !== "posting") return null;
  return {
    id: step.x_media,
    expiresAt: typeof step.expires_at === "number" ? step.expires_at : 0,
    stage,
    sentAt: typeof step.sent_at === "number" ? step.sent_at : null,
  };
}

/** Polls X's processing until it succeeded; gives the attempt up while X still works. */
async function processed(upload: ResumableUpload, id: string, first: Processing): Promise<string> {
  const { api, token, post } = upload;
  const until = api.now() + WAIT_MS;
  let processing = first;
  for (;;) {
    if (processing.state === "succeeded") return id;
    if (processing.state === "failed") {
      throw new NetworkError(
        "x",
        "refused",
        `X could not process the post's ${upload.category === "tweet_gif" ? "GIF" : "video"} (X said: processing failed); X takes MP4 or MOV videos (H.264, AAC) of 0.5 to 140 seconds, and GIFs up to 15 MB.`,
      );
    }
    const wait = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, processing.checkAfterSecs * 1000));
    if (api.now() + wait > until) {
      throw new NetworkError(
        "x",
        "retry",
        "X is still processing the post's video; it is looked at again shortly.",
        {
          retryAfterMs: RETRY_PROCESSING_MS,
        },
      );
    }
    try {
      await delay(wait, undefined, { signal: post.signal });
    } catch {
      // Stopped while waiting (shutdown, the attempt's time limit): nothing was posted.
      throw new NetworkError("x", "retry", "X: stopped while the video was processed.");
    }
    const state = await uploadState(api, token, id, post.signal);
    if (state.kind === "gone") {
      throw new NetworkError(
        "x",
        "retry",
        "X let the video's upload go before it was processed; it is uploaded again.",
      );
    }
    processing = state.processing;
  }
}
