import { type MediaFile, NetworkError } from "@socialpub/core";
import { mp4DurationSeconds } from "../common/mp4-duration.ts";
import type { CreatorInfo } from "./creator.ts";

/**
 * TikTok tells, per creator, the longest video they may post (creator_info's
 * max_video_post_duration_sec) and fails a longer one only after it was uploaded and processed
 * (duration_check_failed). The video's length is read from the file the service already holds, so a
 * video that is too long is refused before anything is sent. A length that cannot be read (WebM, a
 * file without a movie header) or a creator without a stated maximum leaves the judgement to TikTok.
 */
export function refuseTooLong(video: MediaFile, creator: CreatorInfo): void {
  const max = creator.maxDurationSec;
  if (max === null || max <= 0) return;
  const length = mp4DurationSeconds(video.bytes);
  if (length === null || length <= max) return;
  throw new NetworkError(
    "tiktok",
    "refused",
    `TikTok: the video is ${spoken(length)} long, and TikTok lets this creator post videos of at most ${spoken(max)} (max_video_post_duration_sec ${max}). Trim the video to ${spoken(max)} or less and post it again.`,
  );
}

/** A length as a person says it: "45 s", "10 min", "12 min 5.3 s", "1 h 2 min". */
export function spoken(totalSeconds: number): string {
  // Tenths, rounded up, so a video a fraction over the maximum never reads as equal to it.
  const tenths = Math.ceil(totalSeconds * 10 - 1e-9);
  const hours = Math.floor(tenths / 36_000);
  const minutes = Math.floor((tenths % 36_000) / 600);
  const rest = (tenths % 600) / 10;
  const parts: string[] = [];
  if (hours > 0) parts.push(`${hours} h`);
  if (minutes > 0) parts.push(`${minutes} min`);
  if (rest > 0 || parts.length === 0) parts.push(`${rest} s`);
  return parts.join(" ");
}
