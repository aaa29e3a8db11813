// What a post carries besides its text: up to four images or one video (each uploaded as a blob first,
// with its alt text and, where the file says, its width and height), or, when it has no media and its
// text has a link, a link card for the first link. The card names the link's address only: fetching
// the page for its title and picture would mean fetching a user-supplied address from the server, which
// the service does for media alone.
import type {
  $Typed,
  Agent,
  AppBskyEmbedExternal,
  AppBskyEmbedImages,
  AppBskyEmbedVideo,
} from "@atproto/api";
import type { MediaFile } from "@socialpub/core";
import { NetworkError } from "@socialpub/core";
import { imageSize } from "image-size";
import { mp4Dimensions } from "./video.ts";

/** app.bsky.embed.images: at most four images, each at most 1,000,000 bytes, of these types. */
export const MAX_IMAGES = 4;
export const MAX_IMAGE_BYTES = 1_000_000;
export const IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/webp", "image/gif"];

/**
 * app.bsky.embed.video: one MP4 a post, never beside images. Bluesky's video limit is 100 MB (the
 * lexicon's blob allows more; its apps and video service stop at 100 MB).
 */
export const MAX_VIDEO_BYTES = 100_000_000;
export const VIDEO_TYPES: readonly string[] = ["video/mp4"];

/** Largest file of any kind a Bluesky post takes: what the service may fetch for it. */
export const MAX_MEDIA_BYTES = Math.max(MAX_IMAGE_BYTES, MAX_VIDEO_BYTES);

/**
 * Refuses media Bluesky will not take, before anything is uploaded. `where` names the part of a thread
 * the media belongs to ("part 2 of 3: "), empty for the post itself.
 */
export function checkMedia(media: readonly MediaFile[], where = ""): void {
  const videos = media.filter((file) => file.contentType.startsWith("video/"));
  if (videos.length > 0) {
    if (media.length > 1) {
      throw new NetworkError(
        "bluesky",
        "refused",
        `${where}Bluesky takes one video a post, alone (no images beside it); this one has ${videos.length} video(s) and ${media.length - videos.length} image(s)`,
      );
    }
    const video = videos[0] as MediaFile;
    if (!VIDEO_TYPES.includes(video.contentType)) {
      throw new NetworkError(
        "bluesky",
        "refused",
        `${where}Bluesky takes videos as MP4 (video/mp4); ${video.filename} is ${video.contentType}`,
      );
    }
    if (video.bytes.byteLength > MAX_VIDEO_BYTES) {
      throw new NetworkError(
        "bluesky",
        "refused",
        `${where}Bluesky takes videos of at most ${MAX_VIDEO_BYTES} bytes; ${video.filename} has ${video.bytes.byteLength}`,
      );
    }
    return;
  }
  if (media.length > MAX_IMAGES) {
    throw new NetworkError(
      "bluesky",
      "refused",
      `${where}Bluesky takes at most ${MAX_IMAGES} images a post; this one has ${media.length}`,
    );
  }
  for (const file of media) {
    if (!IMAGE_TYPES.includes(file.contentType)) {
      throw new NetworkError(
        "bluesky",
        "refused",
        `${where}Bluesky takes images as ${IMAGE_TYPES.join(", ")} and videos as video/mp4; ${file.filename} is ${file.contentType}`,
      );
    }
    if (file.bytes.byteLength > MAX_IMAGE_BYTES) {
      throw new NetworkError(
        "bluesky",
        "refused",
        `${where}Bluesky takes images of at most ${MAX_IMAGE_BYTES} bytes; ${file.filename} has ${file.bytes.byteLength}`,
      );
    }
  }
}

/** The embed for a post's media, checked by `checkMedia`: one video, or up to four images. */
export async function mediaEmbed(
  agent: Agent,
  media: readonly MediaFile[],
  signal: AbortSignal,
): Promise<$Typed<AppBskyEmbedImages.Main> | $Typed<AppBskyEmbedVideo.Main>> {
  const first = media[0];
  if (media.length === 1 && first?.contentType.startsWith("video/")) return videoEmbed(agent, first, signal);
  return imagesEmbed(agent, media, signal);
}

/**
 * A video uploaded to the account's PDS (com.atproto.repo.uploadBlob) and attached as
 * app.bsky.embed.video, the way Bluesky's documentation gives for any PDS; Bluesky's video service
 * processes it once the post is out, so it may show a few seconds after the post does.
 */
export async function videoEmbed(
  agent: Agent,
  file: MediaFile,
  signal: AbortSignal,
): Promise<$Typed<AppBskyEmbedVideo.Main>> {
  const { data } = await agent.com.atproto.repo.uploadBlob(file.bytes, {
    encoding: file.contentType,
    signal,
  });
  const aspectRatio = mp4Dimensions(file.bytes);
  return {
    $type: "app.bsky.embed.video",
    video: data.blob,
    ...(file.alt ? { alt: file.alt } : {}),
    ...(aspectRatio ? { aspectRatio } : {}),
  };
}

export async function imagesEmbed(
  agent: Agent,
  media: readonly MediaFile[],
  signal: AbortSignal,
): Promise<$Typed<AppBskyEmbedImages.Main>> {
  // At most four, so uploaded side by side.
  const images: AppBskyEmbedImages.Image[] = await Promise.all(
    media.map(async (file) => {
      const { data } = await agent.com.atproto.repo.uploadBlob(file.bytes, {
        encoding: file.contentType,
        signal,
      });
      const aspectRatio = aspectRatioOf(file.bytes);
      return { image: data.blob, alt: file.alt ?? "", ...(aspectRatio ? { aspectRatio } : {}) };
    }),
  );
  return { $type: "app.bsky.embed.images", images };
}

/**
 * The image's width and height, which Bluesky's apps use to lay the image out before it loads (without
 * it they crop it into a default box). Absent when the bytes do not say (a damaged file).
 */
function aspectRatioOf(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const { width, height, orientation } = imageSize(bytes);
    if (!width || !height) return undefined;
    // EXIF orientations 5 to 8 turn the picture a quarter: it shows height × width.
    return orientation !== undefined && orientation >= 5
      ? { width: height, height: width }
      : { width, height };
  } catch {
    return undefined;
  }
}

export function linkCard(url: string): $Typed<AppBskyEmbedExternal.Main> {
  let title = url;
  try {
    const parsed = new URL(url);
    title = `${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  } catch {
    // RichText only detects well-formed links; keep the text as it is otherwise.
  }
  return { $type: "app.bsky.embed.external", external: { uri: url, title, description: "" } };
}
