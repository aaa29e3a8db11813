import { type TikTokApiConfig, tiktokCall } from "./api.ts";

/** What TikTok says of a creator before each post (POST /v2/post/publish/creator_info/query/). */
export interface CreatorInfo {
  username: string;
  nickname: string;
  /** The privacy levels this creator may post with now (PUBLIC_TO_EVERYONE, SELF_ONLY, …). */
  privacyLevels: string[];
  /** The longest video this creator may post, in seconds. */
  maxDurationSec: number | null;
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
}

/**
 * TikTok asks apps to query the creator before every post: the privacy levels offered and the
 * interaction settings change with the creator's account, and a creator who cannot post now (too many
 * posts today, banned from posting) is told by this call's error.
 */
export async function queryCreator(
  api: TikTokApiConfig,
  token: string,
  signal: AbortSignal,
): Promise<CreatorInfo> {
  const data = await tiktokCall(api, token, "/v2/post/publish/creator_info/query/", undefined, signal, true);
  const levels = Array.isArray(data.privacy_level_options)
    ? data.privacy_level_options.filter((l): l is string => typeof l === "string")
    : [];
  return {
    username: typeof data.creator_username === "string" ? data.creator_username : "",
    nickname: typeof data.creator_nickname === "string" ? data.creator_nickname : "",
    privacyLevels: levels,
    maxDurationSec:
      typeof data.max_video_post_duration_sec === "number" ? data.max_video_post_duration_sec : null,
    commentDisabled: data.comment_disabled === true,
    duetDisabled: data.duet_disabled === true,
    stitchDisabled: data.stitch_disabled === true,
  };
}
