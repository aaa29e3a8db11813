// What a post carries besides its text: up to four images (each uploaded as a blob first, with its alt
// text), or, when it has no image and its text has a link, a link card for the first link. The card
// names the link's address only: fetching the page for its title and picture would mean fetching a
// user-supplied address from the server, which the service does for media alone.
import type { $Typed, Agent, AppBskyEmbedExternal, AppBskyEmbedImages } from "@atproto/api";
import type { MediaFile } from "@socialpub/core";
import { NetworkError } from "@socialpub/core";
import { imageSize } from "image-size";

/** app.bsky.embed.images: at most four images, each at most 1,000,000 bytes, of these types. */
export const MAX_IMAGES = 4;
export const MAX_IMAGE_BYTES = 1_000_000;
export const IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/webp", "image/gif"];

/** Refuses media Bluesky will not take, before anything is uploaded. */
export function checkMedia(media: readonly MediaFile[]): void {
  if (media.length > MAX_IMAGES) {
    throw new NetworkError(
      "bluesky",
      "refused",
      `Bluesky takes at most ${MAX_IMAGES} images a post; this one has ${media.length}`,
    );
  }
  for (const file of media) {
    if (!IMAGE_TYPES.includes(file.contentType)) {
      throw new NetworkError(
        "bluesky",
        "refused",
        `Bluesky posts here take images only (${IMAGE_TYPES.join(", ")}); ${file.filename} is ${file.contentType}`,
      );
    }
    if (file.bytes.byteLength > MAX_IMAGE_BYTES) {
      throw new NetworkError(
        "bluesky",
        "refused",
        `Bluesky takes images of at most ${MAX_IMAGE_BYTES} bytes; ${file.filename} has ${file.bytes.byteLength}`,
      );
    }
  }
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
