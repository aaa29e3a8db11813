import { NetworkError, type PublishInput } from "@socialpub/core";
import { tiktokCall } from "./api.ts";
import type { Interactions, TikTokPublishConfig } from "./publish.ts";
import { pullable } from "./pull.ts";

/** TikTok's photo posts take up to 35 images, a title of 90 characters and a description of 4000. */
const MAX_PHOTOS = 35;
const TITLE_CHARS = 90;

/**
 * Starts a photo post (POST /v2/post/publish/content/init/). TikTok fetches photos itself and only from
 * a domain verified in the app's settings (PULL_FROM_URL; no upload exists for photos), so each image's
 * URL must be on one of SOCIALPUB_TIKTOK_VERIFIED_DOMAINS. The title is the text's first line. A photo
 * post takes disable_comment only (there is no duet or stitch of photos).
 */
export async function photoInit(
  config: TikTokPublishConfig,
  token: string,
  interactions: Interactions,
  privacy: string,
  post: PublishInput,
): Promise<string> {
  const refuse = (why: string) => new NetworkError("tiktok", "refused", `TikTok: ${why}`);
  if (post.media.length > MAX_PHOTOS) throw refuse(`a photo post takes up to ${MAX_PHOTOS} photos.`);
  if (!post.media.every((m) => pullable(config, m))) {
    throw refuse(
      "TikTok fetches photos only from a domain verified in the app's settings; serve the media from one and list it in SOCIALPUB_TIKTOK_VERIFIED_DOMAINS, or post a video.",
    );
  }
  const body = {
    post_info: {
      title: [...(post.text.split("\n")[0] ?? "")].slice(0, TITLE_CHARS).join(""),
      description: post.text,
      privacy_level: privacy,
      disable_comment: interactions.disable_comment,
      auto_add_music: true,
    },
    source_info: {
      source: "PULL_FROM_URL",
      photo_cover_index: 0,
      photo_images: post.media.map((m) => m.url),
    },
    post_mode: "DIRECT_POST",
    media_type: "PHOTO",
  };
  // TikTok pulls the photos and may publish even when the answer is lost: "outcome unknown" then.
  const data = await tiktokCall(config.api, token, "/v2/post/publish/content/init/", body, post.signal);
  const publishId = typeof data.publish_id === "string" ? data.publish_id : "";
  if (!publishId)
    throw new NetworkError("tiktok", "unknown", "TikTok answered the post without its publish_id.");
  await post.saveStep({ publish_id: publishId, source: "PULL_FROM_URL", video_size: 0 });
  return publishId;
}
