import { type MediaFile, NetworkError } from "@socialpub/core";
import { type YouTubeAnswer, type YouTubeApiConfig, youtubeError, youtubeSend } from "./api.ts";

/*
 * Google's resumable upload protocol for videos.insert, as YouTube's guide gives it: a POST opens an
 * upload session (the video's metadata in the body, the file's size and type in X-Upload-Content-*)
 * and answers its URL in Location; PUTs to that URL send the bytes, in chunks (Content-Range) when the
 * file is large. YouTube answers 308 Resume Incomplete with the bytes it holds in Range
 * (`bytes=0-N`), or 200/201 with the video resource once it has them all. An empty PUT with
 * `Content-Range: bytes *\/SIZE` asks where a session stands; 404 or 410 means it has expired and
 * nothing was made. The video exists only once the last byte is in, so a session never makes two.
 */

/** Chunks must be multiples of 256 KiB, except the last. */
export const CHUNK_UNIT = 256 * 1024;
/** What one PUT sends at most, unless configured: 8 MiB, as Google's client libraries default to. */
export const DEFAULT_CHUNK_BYTES = 32 * CHUNK_UNIT;
/** PUTs in a row that move the upload no further before the attempt gives up (and is retried). */
const MAX_STALLS = 3;

export type SessionState =
  | { kind: "done"; video: Record<string, unknown> }
  | { kind: "partial"; received: number }
  | { kind: "gone" };

/** Opens a session for `file` with `metadata` (snippet and status); answers its URL. */
export async function openSession(
  api: YouTubeApiConfig,
  token: string,
  metadata: unknown,
  file: MediaFile,
  signal: AbortSignal,
): Promise<string> {
  const answer = await youtubeSend(api, token, {
    method: "POST",
    url: "/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status",
    headers: {
      "content-type": "application/json; charset=UTF-8",
      "x-upload-content-length": String(file.bytes.length),
      "x-upload-content-type": file.contentType,
    },
    body: JSON.stringify(metadata),
    signal,
    // A session makes no video: one whose answer was lost is simply opened again.
    idempotent: true,
  });
  if (answer.status !== 200 && answer.status !== 201) throw youtubeError(answer, api.now());
  const location = answer.headers.get("location");
  if (!location || !sameOrigin(location, api.apiUrl)) {
    throw new NetworkError(
      "youtube",
      "retry",
      "YouTube opened the upload without a session address on its own host; it is tried again.",
    );
  }
  return location;
}

/** Where a session stands (the empty PUT with `bytes *\/size`). */
export async function sessionState(
  api: YouTubeApiConfig,
  token: string,
  session: string,
  size: number,
  signal: AbortSignal,
): Promise<SessionState> {
  const answer = await youtubeSend(api, token, {
    method: "PUT",
    url: session,
    headers: { "content-range": `bytes */${size}` },
    body: new Uint8Array(0),
    signal,
    idempotent: true,
  });
  return stateOf(api, answer);
}

/**
 * Sends the file's bytes from `offset` on, `chunkBytes` at a time, following what YouTube says it holds
 * after each PUT; answers the video resource. A PUT without an answer is `retry`: the session, saved
 * on the target, says on the next attempt what arrived.
 */
export async function sendBytes(
  api: YouTubeApiConfig,
  token: string,
  session: string,
  file: MediaFile,
  offset: number,
  chunkBytes: number,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const size = file.bytes.length;
  let at = offset;
  let stalls = 0;
  for (;;) {
    const end = Math.min(size, at + chunkBytes);
    const answer = await youtubeSend(api, token, {
      method: "PUT",
      url: session,
      headers: {
        "content-type": file.contentType,
        "content-range": `bytes ${at}-${end - 1}/${size}`,
      },
      // A copy of the chunk: fetch takes bytes backed by a plain ArrayBuffer.
      body: new Uint8Array(file.bytes.subarray(at, end)),
      signal,
      idempotent: true,
    });
    const state = stateOf(api, answer);
    if (state.kind === "done") return state.video;
    if (state.kind === "gone") {
      throw new NetworkError(
        "youtube",
        "retry",
        "YouTube's upload session expired before the video was sent; a new one is opened.",
        { status: answer.status },
      );
    }
    stalls = state.received > at ? 0 : stalls + 1;
    if (stalls >= MAX_STALLS) {
      throw new NetworkError(
        "youtube",
        "retry",
        "YouTube took none of the video's bytes in several tries; the upload resumes later.",
      );
    }
    at = state.received;
  }
}

function stateOf(api: YouTubeApiConfig, answer: YouTubeAnswer): SessionState {
  if (answer.status === 200 || answer.status === 201) {
    if (typeof answer.body?.id !== "string") {
      throw new NetworkError(
        "youtube",
        "retry",
        "YouTube finished the upload without the video's id; the session is asked again.",
      );
    }
    return { kind: "done", video: answer.body };
  }
  if (answer.status === 308) {
    // Range: bytes=0-N names the last byte held; without it, none.
    const range = /^bytes=0-(\d+)$/.exec(answer.headers.get("range") ?? "");
    return { kind: "partial", received: range ? Number(range[1]) + 1 : 0 };
  }
  if (answer.status === 404 || answer.status === 410) return { kind: "gone" };
  throw youtubeError(answer, api.now());
}

/** A session address must be on the API's own host: the token and the bytes go nowhere else. */
function sameOrigin(location: string, apiUrl: string): boolean {
  try {
    return new URL(location).origin === new URL(apiUrl).origin;
  } catch {
    return false;
  }
}
