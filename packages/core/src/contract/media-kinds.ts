/**
 * What a piece of media is, as far as the networks' rules care: an image or a video. A network that
 * takes only one kind (YouTube: videos) is told apart by its rule's `needsVideo`; this file says how a
 * post's media is classed before anything is fetched, from what is known when the post is made.
 */
export type MediaKind = "image" | "video";

/** Media types by a URL path's extension: how POST /media {url} and the post rules read a URL's type. */
export const MEDIA_TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  heic: "image/heic",
  avif: "image/avif",
  mp4: "video/mp4",
  m4v: "video/x-m4v",
  mov: "video/quicktime",
  webm: "video/webm",
};

/** The kind of a MIME type (image/… or video/…); null for anything else. */
export function mediaKindOfType(type: string): MediaKind | null {
  const top = type.trim().toLowerCase().split("/", 1)[0];
  return top === "image" || top === "video" ? top : null;
}

/**
 * The media type a URL's path ends in (`…/cat.jpg` → image/jpeg), or null when the path has no known
 * extension or the value is not a URL. Only the path counts: a query or fragment says nothing.
 */
export function mediaTypeOfUrl(value: string): string | null {
  let path: string;
  try {
    path = new URL(value).pathname;
  } catch {
    return null;
  }
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && MEDIA_TYPE_BY_EXTENSION[extension]) || null;
}
