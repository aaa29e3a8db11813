import { type MediaFile, NetworkError } from "@socialpub/core";
import type { UploadCategory } from "./chunked-upload.ts";

/*
 * What X makes of a post's media, by X's rules for one post: up to four images, or one video, or one
 * animated GIF, never mixed. Images go up in one request each; a video or a GIF through the chunked
 * upload, which X processes before the post may name it.
 */

/** Images through the one-request upload: up to 5 MB. */
export const X_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Animated GIFs (tweet_gif): up to 15 MB. */
export const X_MAX_GIF_BYTES = 15 * 1024 * 1024;
/**
 * Videos (tweet_video): X takes up to 512 MB; the service holds a post's media in memory while it
 * publishes, so this server stops at 256 MiB, as it does for YouTube.
 */
export const X_MAX_VIDEO_BYTES = 256 * 1024 * 1024;
const MAX_IMAGES = 4;
const IMAGE_TYPES = /^image\/(jpeg|png|gif|webp)$/;
/** The video types initialize's media_type takes (x-openapi.json). */
const VIDEO_TYPES = /^video\/(mp4|quicktime|webm|mp2t)$/;

export type MediaPlan =
  | { kind: "images"; files: readonly MediaFile[] }
  | { kind: "chunked"; file: MediaFile; category: UploadCategory };

export function planMedia(media: readonly MediaFile[]): MediaPlan {
  const refuse = (why: string) => new NetworkError("x", "refused", `X: ${why}`);
  const videos = media.filter((f) => f.contentType.startsWith("video/"));
  if (videos.length > 0) {
    if (media.length > 1) throw refuse("a post takes one video and nothing else; the post has more media.");
    const file = videos[0]!;
    if (!VIDEO_TYPES.test(file.contentType)) {
      throw refuse(`X takes MP4 or MOV videos; the post's video is ${file.contentType}.`);
    }
    if (file.bytes.length > X_MAX_VIDEO_BYTES)
      throw refuse("this server uploads videos up to 256 MiB; the post's video is larger.");
    return { kind: "chunked", file, category: "tweet_video" };
  }
  // A GIF alone is posted as an animated GIF; among other images, as one of them.
  if (media.length === 1 && media[0]!.contentType === "image/gif") {
    const file = media[0]!;
    if (file.bytes.length > X_MAX_GIF_BYTES)
      throw refuse("animated GIFs up to 15 MB; the post's GIF is larger.");
    return { kind: "chunked", file, category: "tweet_gif" };
  }
  if (media.length > MAX_IMAGES)
    throw refuse(`a post takes up to ${MAX_IMAGES} images; the post has ${media.length}.`);
  for (const file of media) {
    if (!IMAGE_TYPES.test(file.contentType)) {
      throw refuse(
        `images (JPEG, PNG, GIF, WebP) and videos (MP4, MOV) only; ${file.contentType} is not one of them.`,
      );
    }
    if (file.bytes.length > X_MAX_IMAGE_BYTES) throw refuse("images up to 5 MB; the post's image is larger.");
  }
  return { kind: "images", files: media };
}
