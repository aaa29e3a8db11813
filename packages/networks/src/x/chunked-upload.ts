import { type MediaFile, NetworkError } from "@socialpub/core";
import { type XApiConfig, type XAuth, xCall } from "./api.ts";

/*
 * X's chunked media upload, as x-openapi.json describes it: POST /2/media/upload/initialize (the
 * file's type, size and category) answers an upload id; POST /2/media/upload/{id}/append sends the
 * bytes in segments (multipart `media` and `segment_index`, 0 to 999); POST /2/media/upload/{id}/finalize
 * closes it and answers processing_info when X still has to process the file; GET /2/media/upload
 * ?command=STATUS&media_id=… tells where processing stands (pending, in_progress, failed, succeeded,
 * and check_after_secs). Nothing is posted by any of these: an upload only becomes visible when a post
 * names its id.
 */

/** X refuses an append larger than 5 MB; segments stay below it. */
export const X_SEGMENT_BYTES = 4 * 1024 * 1024;
/** The most segments one upload takes (segment_index 0–999). */
const MAX_SEGMENTS = 1000;

export type UploadCategory = "tweet_video" | "tweet_gif";

export interface Processing {
  /** pending, in_progress, failed or succeeded; "succeeded" when X answered no processing_info. */
  state: string;
  /** X's advice on when to look again, in seconds. */
  checkAfterSecs: number;
}

/** Where an upload stands on X: processing, or gone (expired, or never finalized). */
export type UploadState = { kind: "processing"; processing: Processing } | { kind: "gone" };

interface UploadData {
  id?: unknown;
  expires_after_secs?: unknown;
  processing_info?: { state?: unknown; check_after_secs?: unknown };
}

/** Opens an upload; answers its id and when X lets it go (ms since the epoch). */
export async function initializeUpload(
  api: XApiConfig,
  token: XAuth,
  file: MediaFile,
  category: UploadCategory,
  signal: AbortSignal,
): Promise<{ id: string; expiresAt: number }> {
  const body = { media_category: category, media_type: file.contentType, total_bytes: file.bytes.length };
  // An upload posts nothing: one whose answer was lost is simply opened again.
  const answer = (await xCall(
    api,
    token,
    "POST",
    "/2/media/upload/initialize",
    { json: body },
    signal,
    true,
  )) as {
    data?: UploadData;
  };
  const id = answer?.data?.id;
  if (typeof id !== "string") throw new NetworkError("x", "retry", "X opened the upload without its id.");
  return { id, expiresAt: api.now() + secondsOf(answer.data?.expires_after_secs, 86_400) * 1000 };
}

/** Sends every segment of the file (again, when resuming: a segment sent twice replaces itself). */
export async function appendSegments(
  api: XApiConfig,
  token: XAuth,
  id: string,
  file: MediaFile,
  segmentBytes: number,
  signal: AbortSignal,
): Promise<void> {
  const segments = Math.ceil(file.bytes.length / segmentBytes);
  if (segments > MAX_SEGMENTS) {
    throw new NetworkError(
      "x",
      "refused",
      `X takes an upload in at most ${MAX_SEGMENTS} segments; the file is too large.`,
    );
  }
  for (let index = 0; index < segments; index++) {
    const start = index * segmentBytes;
    const form = new FormData();
    const chunk = new Uint8Array(
      file.bytes.subarray(start, Math.min(file.bytes.length, start + segmentBytes)),
    );
    form.set("media", new Blob([chunk], { type: "application/octet-stream" }), file.filename);
    form.set("segment_index", String(index));
    await xCall(api, token, "POST", `/2/media/upload/${id}/append`, { form }, signal, true);
  }
}

/** Closes the upload: X checks the bytes add up and starts processing them. */
export async function finalizeUpload(
  api: XApiConfig,
  token: XAuth,
  id: string,
  signal: AbortSignal,
): Promise<Processing> {
  const answer = (await xCall(api, token, "POST", `/2/media/upload/${id}/finalize`, null, signal, true)) as {
    data?: UploadData;
  };
  return processingOf(answer?.data);
}

/** Where an upload X was handed earlier stands; `gone` when X no longer knows it. */
export async function uploadState(
  api: XApiConfig,
  token: XAuth,
  id: string,
  signal: AbortSignal,
): Promise<UploadState> {
  try {
    const path = `/2/media/upload?command=STATUS&media_id=${encodeURIComponent(id)}`;
    const answer = (await xCall(api, token, "GET", path, null, signal, true)) as { data?: UploadData };
    return { kind: "processing", processing: processingOf(answer?.data) };
  } catch (error) {
    // X forgets an upload once it expires (or one never finalized): nothing was posted with it.
    if (error instanceof NetworkError && (error.status === 404 || error.status === 400))
      return { kind: "gone" };
    throw error;
  }
}

function processingOf(data: UploadData | undefined): Processing {
  const info = data?.processing_info;
  if (!info) return { state: "succeeded", checkAfterSecs: 0 };
  return { state: String(info.state ?? "pending"), checkAfterSecs: secondsOf(info.check_after_secs, 1) };
}

function secondsOf(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fallback;
}
