import { NetworkError } from "@socialpub/core";
import { type TikTokApiConfig, tiktokCall } from "./api.ts";

/*
 * Where a post stands (POST /v2/post/publish/status/fetch/): PROCESSING_UPLOAD or PROCESSING_DOWNLOAD
 * while TikTok receives the media, then PUBLISH_COMPLETE, or FAILED with a fail_reason. The post's own
 * ids (publicaly_available_post_id, TikTok's spelling) come only once it is public.
 */

export interface PublishStatus {
  status: string;
  failReason: string;
  postIds: string[];
  uploadedBytes: number;
}

export async function fetchStatus(
  api: TikTokApiConfig,
  token: string,
  publishId: string,
  signal: AbortSignal,
): Promise<PublishStatus> {
  const data = await tiktokCall(
    api,
    token,
    "/v2/post/publish/status/fetch/",
    { publish_id: publishId },
    signal,
    true,
  );
  const ids = Array.isArray(data.publicaly_available_post_id) ? data.publicaly_available_post_id : [];
  return {
    status: typeof data.status === "string" ? data.status : "",
    failReason: typeof data.fail_reason === "string" ? data.fail_reason : "",
    postIds: ids.map(String),
    uploadedBytes: typeof data.uploaded_bytes === "number" ? data.uploaded_bytes : 0,
  };
}

/** TikTok's fail reasons, in words a user can act on, and what follows from each. */
const REASONS: Record<string, { kind: "retry" | "reauth" | "refused"; words: string; waitMs?: number }> = {
  file_format_check_failed: {
    kind: "refused",
    words: "the file is not a video TikTok takes (MP4, WebM or MOV, H.264 or H.265)",
  },
  duration_check_failed: {
    kind: "refused",
    words: "the video is shorter than 3 seconds or longer than this creator may post",
  },
  frame_rate_check_failed: {
    kind: "refused",
    words: "the video's frame rate is not one TikTok takes (23 to 60 fps)",
  },
  picture_size_check_failed: {
    kind: "refused",
    words: "the video's or photo's size in pixels is not one TikTok takes (at least 360 pixels each way)",
  },
  video_pull_failed: { kind: "refused", words: "TikTok could not fetch the video from its URL" },
  photo_pull_failed: { kind: "refused", words: "TikTok could not fetch the photos from their URLs" },
  publish_cancelled: { kind: "refused", words: "the post was cancelled on TikTok" },
  auth_removed: { kind: "reauth", words: "the creator removed this app's access" },
  spam_risk_too_many_posts: {
    kind: "retry",
    words: "the creator has reached TikTok's limit of posts a day through apps",
    waitMs: 60 * 60_000,
  },
  spam_risk_user_banned_from_posting: { kind: "refused", words: "the creator is banned from posting" },
  spam_risk_text: { kind: "refused", words: "TikTok judged the caption to be spam" },
  spam_risk: { kind: "refused", words: "TikTok judged the post to be spam" },
  internal: { kind: "retry", words: "TikTok failed internally", waitMs: 60_000 },
};

/** The failure a FAILED status means; a passing one (`retry`) lets the next attempt start anew. */
export function statusFailure(state: PublishStatus): NetworkError {
  const reason = REASONS[state.failReason] ?? {
    kind: "refused" as const,
    words: "TikTok did not publish the post",
  };
  const said = `(TikTok said: FAILED ${state.failReason || "without a reason"})`;
  return new NetworkError(
    "tiktok",
    reason.kind,
    `TikTok did not publish the post: ${reason.words} ${said}.`,
    reason.waitMs === undefined ? {} : { retryAfterMs: reason.waitMs },
  );
}
