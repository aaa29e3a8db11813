import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
  type SentPart,
} from "@socialpub/core";
import type { ContainerFlow } from "../common/container-publish.ts";
import { type MetaGraphConfig, metaCall } from "../common/meta-graph.ts";
import type { MetaListing } from "../common/meta-recent.ts";
import { type ContainerPart, publishContainerPost } from "../common/meta-thread.ts";

/** Instagram takes JPEG images up to 8 MB (reels up to 300 MB; the server fetches no more than this). */
export const INSTAGRAM_MAX_MEDIA_BYTES = 8 * 1024 * 1024;
/** An Instagram carousel takes 2 to 10 images and videos. */
export const INSTAGRAM_MAX_CAROUSEL_ITEMS = 10;
const IMAGE = /^image\/(jpeg|png)$/;
const VIDEO = /^video\/(mp4|quicktime)$/;

function unsupported(file: MediaFile): NetworkError {
  return new NetworkError(
    "instagram",
    "refused",
    `Instagram takes JPEG or PNG images and MP4 or MOV videos; ${file.contentType} is not one of them.`,
  );
}

/** An image's alt text: Instagram takes alt_text on images only (not on reels or videos). */
const altOf = (file: MediaFile): Record<string, string> => (file.alt ? { alt_text: file.alt } : {});

/**
 * What the container is made of: an image (with its alt text) or a reel that Instagram fetches from its
 * URL, or a CAROUSEL of 2–10 images and videos; `items` are the carousel's.
 */
export function instagramContainer(post: Pick<ContainerPart, "text" | "media">): {
  params: Record<string, string>;
  items?: Record<string, string>[];
} {
  const { media, text } = post;
  const [file] = media;
  if (!file)
    throw new NetworkError("instagram", "refused", "Instagram needs an image or a video for every post.");
  if (media.length > INSTAGRAM_MAX_CAROUSEL_ITEMS) {
    throw new NetworkError(
      "instagram",
      "refused",
      `Instagram takes at most ${INSTAGRAM_MAX_CAROUSEL_ITEMS} images and videos in one carousel; the post has ${media.length}.`,
    );
  }
  if (media.length === 1) {
    if (IMAGE.test(file.contentType))
      return { params: { image_url: file.url, caption: text, ...altOf(file) } };
    if (VIDEO.test(file.contentType))
      return { params: { media_type: "REELS", video_url: file.url, caption: text } };
    throw unsupported(file);
  }
  const items = media.map((item): Record<string, string> => {
    if (IMAGE.test(item.contentType)) return { image_url: item.url, ...altOf(item) };
    // A video in a carousel is a VIDEO item (a single video is a reel).
    if (VIDEO.test(item.contentType)) return { media_type: "VIDEO", video_url: item.url };
    throw unsupported(item);
  });
  return { params: { media_type: "CAROUSEL", caption: text }, items };
}

/** The account's media, newest first, each with its caption. */
export const instagramListing = (userId: string): MetaListing => ({
  listPath: `/${userId}/media`,
  textField: "caption",
});

export function publishInstagram(
  graph: MetaGraphConfig,
  account: AccountSession,
  post: PublishInput,
  waitMs?: number,
): Promise<PublishedPost> {
  const userId = String(account.credentials.user_id ?? "me");
  const token = String(account.credentials.access_token ?? "");
  return publishContainerPost(
    {
      network: "instagram",
      flowFor(part): ContainerFlow {
        const made = instagramContainer(part);
        return {
          graph,
          token,
          userId,
          createPath: `/${userId}/media`,
          publishPath: `/${userId}/media_publish`,
          ...instagramListing(userId),
          statusField: "status_code",
          params: made.params,
          ...(made.items && { items: made.items }),
          ...(waitMs !== undefined && { waitMs }),
        };
      },
      // The first comment: POST /{ig-media-id}/comments. A comment has no address of its own: it shows
      // under the post, whose permalink it answers.
      async comment(text: string, root: SentPart): Promise<SentPart> {
        const made = await metaCall(
          graph,
          token,
          "POST",
          `/${encodeURIComponent(root.id)}/comments`,
          { message: text },
          post.signal,
        );
        if (typeof made.id !== "string") {
          throw new NetworkError("instagram", "unknown", "Instagram answered the comment without its id.");
        }
        return { id: made.id, permalink: root.permalink };
      },
    },
    post,
  );
}
