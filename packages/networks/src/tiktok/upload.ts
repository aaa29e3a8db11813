import { NetworkError } from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";

/*
 * TikTok's FILE_UPLOAD transfer (developers.tiktok.com, "Media Transfer Guide"): the video is declared
 * at init as video_size, chunk_size and total_chunk_count, then PUT to the upload_url chunk by chunk, in
 * order, each with Content-Range: bytes FIRST-LAST/TOTAL. Chunks are 5 to 64 MB; the last one takes the
 * trailing bytes too (up to 128 MB); a video under 5 MB goes whole as one chunk; 1 to 1000 chunks.
 */

export const MIN_CHUNK_BYTES = 5 * 1024 * 1024;
export const MAX_CHUNK_BYTES = 64 * 1024 * 1024;

export interface ChunkPlan {
  video_size: number;
  chunk_size: number;
  total_chunk_count: number;
}

/** How a video of `size` bytes is cut, with chunks of `preferred` bytes where TikTok's rules allow. */
export function planChunks(size: number, preferred: number): ChunkPlan {
  const chunk = Math.min(Math.max(preferred, MIN_CHUNK_BYTES), MAX_CHUNK_BYTES);
  if (size <= chunk) return { video_size: size, chunk_size: size, total_chunk_count: 1 };
  // Rounded down: the last chunk carries the rest (less than one more chunk, so under 128 MB).
  return { video_size: size, chunk_size: chunk, total_chunk_count: Math.floor(size / chunk) };
}

/** The byte ranges of the plan's chunks, first to last. */
export function chunkRanges(plan: ChunkPlan): { first: number; last: number }[] {
  const ranges: { first: number; last: number }[] = [];
  for (let i = 0; i < plan.total_chunk_count; i++) {
    const first = i * plan.chunk_size;
    const last = i === plan.total_chunk_count - 1 ? plan.video_size - 1 : first + plan.chunk_size - 1;
    ranges.push({ first, last });
  }
  return ranges;
}

/**
 * Sends the video's chunks in order. An upload cut off publishes nothing (TikTok waits for every byte,
 * then lets the upload URL expire after an hour), so every failure here is `retry`: the next attempt
 * sees the upload incomplete and starts a new one.
 */
export async function uploadChunks(
  fetchImpl: typeof fetch,
  uploadUrl: string,
  bytes: Uint8Array,
  contentType: string,
  plan: ChunkPlan,
  signal: AbortSignal,
): Promise<void> {
  for (const { first, last } of chunkRanges(plan)) {
    let response: Response;
    try {
      response = await fetchImpl(uploadUrl, {
        method: "PUT",
        headers: {
          "content-type": contentType,
          "content-range": `bytes ${first}-${last}/${plan.video_size}`,
        },
        body: bytes.slice(first, last + 1),
        signal,
      });
    } catch (cause) {
      const failure = describeFetchFailure(cause, signal);
      throw new NetworkError("tiktok", "retry", `TikTok's video upload ${failure.reason}`, { cause });
    }
    await response.arrayBuffer().catch(() => undefined);
    // 206 while chunks are missing, 201 once the video is whole.
    if (response.status !== 206 && response.status !== 201 && response.status !== 200) {
      const kind = response.status >= 500 || response.status === 429 ? "retry" : "refused";
      throw new NetworkError(
        "tiktok",
        kind,
        `TikTok refused the video's bytes ${first}-${last} (TikTok said: ${response.status}).`,
        { status: response.status },
      );
    }
  }
}
