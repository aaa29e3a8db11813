import { type AccountSession, NetworkError, type PublishedPost, type PublishInput } from "@socialpub/core";
import { publishThroughContainer } from "../common/container-publish.ts";
import type { MetaGraphConfig } from "../common/meta-graph.ts";
import type { MetaListing } from "../common/meta-recent.ts";

/** Instagram takes JPEG images up to 8 MB (reels up to 300 MB; the server fetches no more than this). */
export const INSTAGRAM_MAX_MEDIA_BYTES = 8 * 1024 * 1024;
const IMAGE = /^image\/(jpeg|png)$/;
const VIDEO = /^video\/(mp4|quicktime)$/;

/** What the container is made of: an image, or a reel, that Instagram fetches from its URL. */
export function instagramContainer(post: PublishInput): Record<string, string> {
  const [file, ...more] = post.media;
  if (!file)
    throw new NetworkError("instagram", "refused", "Instagram needs an image or a video for every post.");
  if (more.length > 0) {
    throw new NetworkError(
      "instagram",
      "refused",
      "Instagram: this server publishes one image or video per post.",
    );
  }
  if (IMAGE.test(file.contentType)) return { image_url: file.url, caption: post.text };
  if (VIDEO.test(file.contentType)) return { media_type: "REELS", video_url: file.url, caption: post.text };
  throw new NetworkError(
    "instagram",
    "refused",
    `Instagram takes JPEG or PNG images and MP4 or MOV videos; ${file.contentType} is not one of them.`,
  );
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
  return publishThroughContainer(
    {
      graph,
      token: String(account.credentials.access_token ?? ""),
      userId,
      createPath: `/${userId}/media`,
      publishPath: `/${userId}/media_publish`,
      ...instagramListing(userId),
      statusField: "status_code",
      params: instagramContainer(post),
      ...(waitMs !== undefined && { waitMs }),
    },
    post,
  );
}
