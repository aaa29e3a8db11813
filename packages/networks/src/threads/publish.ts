import { type AccountSession, NetworkError, type PublishedPost, type PublishInput } from "@socialpub/core";
import { publishThroughContainer } from "../common/container-publish.ts";
import type { MetaGraphConfig } from "../common/meta-graph.ts";
import type { MetaListing } from "../common/meta-recent.ts";

/** Threads takes images up to 8 MB and videos up to 1 GB; the server fetches no more than this. */
export const THREADS_MAX_MEDIA_BYTES = 8 * 1024 * 1024;
const IMAGE = /^image\/(jpeg|png)$/;
const VIDEO = /^video\/(mp4|quicktime)$/;

/** What the Threads container is made of: TEXT, or an IMAGE or VIDEO Threads fetches from its URL. */
export function threadsContainer(post: PublishInput): Record<string, string> {
  const [file, ...more] = post.media;
  if (more.length > 0) {
    throw new NetworkError(
      "threads",
      "refused",
      "Threads: this server publishes one image or video per post.",
    );
  }
  if (!file) return { media_type: "TEXT", text: post.text };
  if (IMAGE.test(file.contentType)) return { media_type: "IMAGE", image_url: file.url, text: post.text };
  if (VIDEO.test(file.contentType)) return { media_type: "VIDEO", video_url: file.url, text: post.text };
  throw new NetworkError(
    "threads",
    "refused",
    `Threads takes JPEG or PNG images and MP4 or MOV videos; ${file.contentType} is not one of them.`,
  );
}

/** The account's threads, newest first, each with its text. */
export const threadsListing = (userId: string): MetaListing => ({
  listPath: `/${userId}/threads`,
  textField: "text",
});

export function publishThreads(
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
      createPath: `/${userId}/threads`,
      publishPath: `/${userId}/threads_publish`,
      ...threadsListing(userId),
      statusField: "status",
      params: threadsContainer(post),
      ...(waitMs !== undefined && { waitMs }),
    },
    post,
  );
}
