import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PollInput,
  type PublishedPost,
  type PublishInput,
  type SentPart,
} from "@socialpub/core";
import { type ContainerFlow, publishThroughContainer } from "../common/container-publish.ts";
import type { MetaGraphConfig } from "../common/meta-graph.ts";
import type { MetaListing } from "../common/meta-recent.ts";
import { type ContainerPart, publishContainerPost } from "../common/meta-thread.ts";

/** Threads takes images up to 8 MB and videos up to 1 GB; the server fetches no more than this. */
export const THREADS_MAX_MEDIA_BYTES = 8 * 1024 * 1024;
/** A Threads carousel takes 2 to 20 images and videos. */
export const THREADS_MAX_CAROUSEL_ITEMS = 20;
const IMAGE = /^image\/(jpeg|png)$/;
const VIDEO = /^video\/(mp4|quicktime)$/;
/** Threads' poll options, in the order poll_attachment names them. */
const POLL_KEYS = ["option_a", "option_b", "option_c", "option_d"] as const;

/** What one image or video's container is made of, with its alt text (Threads takes it on both). */
function mediaParams(file: MediaFile): Record<string, string> {
  const alt: Record<string, string> = file.alt ? { alt_text: file.alt } : {};
  if (IMAGE.test(file.contentType)) return { media_type: "IMAGE", image_url: file.url, ...alt };
  if (VIDEO.test(file.contentType)) return { media_type: "VIDEO", video_url: file.url, ...alt };
  throw new NetworkError(
    "threads",
    "refused",
    `Threads takes JPEG or PNG images and MP4 or MOV videos; ${file.contentType} is not one of them.`,
  );
}

/**
 * What one Threads container is made of: TEXT (with the poll, where the post has one), an IMAGE or
 * VIDEO Threads fetches from its URL, or a CAROUSEL of 2–20 items; `items` are the carousel's.
 */
export function threadsContainer(
  part: Pick<ContainerPart, "text" | "media">,
  poll: PollInput | null = null,
): { params: Record<string, string>; items?: Record<string, string>[] } {
  const { media, text } = part;
  if (poll && media.length > 0) {
    throw new NetworkError("threads", "refused", "Threads takes a poll only on a post without media.");
  }
  if (media.length > THREADS_MAX_CAROUSEL_ITEMS) {
    throw new NetworkError(
      "threads",
      "refused",
      `Threads takes at most ${THREADS_MAX_CAROUSEL_ITEMS} images and videos in one post; it has ${media.length}.`,
    );
  }
  if (media.length === 0) {
    const params: Record<string, string> = { media_type: "TEXT", text };
    if (poll) {
      const options = Object.fromEntries(poll.options.map((option, i) => [POLL_KEYS[i], option]));
      params.poll_attachment = JSON.stringify(options);
    }
    return { params };
  }
  if (media.length === 1) return { params: { ...mediaParams(media[0]!), text } };
  return { params: { media_type: "CAROUSEL", text }, items: media.map(mediaParams) };
}

/** The account's threads, newest first, each with its text. */
export const threadsListing = (userId: string): MetaListing => ({
  listPath: `/${userId}/threads`,
  textField: "text",
});

/** The account's replies (the parts of its threads after the first, and its first comments). */
const repliesListing = (userId: string): MetaListing => ({
  listPath: `/${userId}/replies`,
  textField: "text",
});

export function publishThreads(
  graph: MetaGraphConfig,
  account: AccountSession,
  post: PublishInput,
  waitMs?: number,
): Promise<PublishedPost> {
  const userId = String(account.credentials.user_id ?? "me");
  const token = String(account.credentials.access_token ?? "");
  const flow = (
    made: { params: Record<string, string>; items?: Record<string, string>[] },
    replyTo: string | null,
  ): ContainerFlow => ({
    graph,
    token,
    userId,
    createPath: `/${userId}/threads`,
    publishPath: `/${userId}/threads_publish`,
    // A reply is listed among the account's replies, not its threads.
    ...(replyTo === null ? threadsListing(userId) : repliesListing(userId)),
    statusField: "status",
    params: replyTo === null ? made.params : { ...made.params, reply_to_id: replyTo },
    ...(made.items && { items: made.items }),
    ...(waitMs !== undefined && { waitMs }),
  });
  return publishContainerPost(
    {
      network: "threads",
      // Each part after the first replies to the one before it; only the first carries the poll.
      flowFor: (part, parent) =>
        flow(threadsContainer(part, part.index === 0 ? (post.poll ?? null) : null), parent?.id ?? null),
      // The first comment is the account's own reply to the first part.
      async comment(text: string, root: SentPart): Promise<SentPart> {
        return publishThroughContainer(flow(threadsContainer({ text, media: [] }), root.id), {
          text,
          step: null,
          saveStep: async () => {},
          signal: post.signal,
        });
      },
    },
    post,
  );
}
