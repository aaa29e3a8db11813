import {
  type MediaFile,
  type NetworkId,
  type PublishedPost,
  type PublishInput,
  publishThread,
  type SentPart,
} from "@socialpub/core";
import { CLOCK_SLACK_MS, type ContainerFlow, publishThroughContainer } from "./container-publish.ts";
import { findMetaPost } from "./meta-recent.ts";

/*
 * A rich post through Meta's media containers (Threads, Instagram). A post with nothing rich is one
 * container flow, as it always was (container-publish.ts). A thread, or a post with a first comment, is
 * published with publishThread (core's publishing/thread.ts): each part is a container flow of its own
 * whose step is the part's own (its container and when it was made), so a retry or restart resumes a
 * part from its container and never sends a part twice; the first comment follows the first part.
 *
 * Before a part's container is made, when it was made is saved: a part whose attempt stopped after that
 * and before its container was saved made no post (only a published container makes one, and none is
 * published before its id is saved), and the account's recent posts are read back all the same before
 * it is sent again, as for a post (`find`).
 */

/** One part as a network's container is made from it. */
export interface ContainerPart {
  /** 0 for the post itself. */
  index: number;
  text: string;
  media: readonly MediaFile[];
}

export interface ContainerThread {
  network: NetworkId;
  /** The container flow of one part; `parent` is the part before it (null for the first). */
  flowFor(part: ContainerPart, parent: SentPart | null): ContainerFlow;
  /** Adds the first comment to the first part; absent when the network takes none. */
  comment?(text: string, root: SentPart): Promise<SentPart>;
}

export async function publishContainerPost(
  thread: ContainerThread,
  post: PublishInput,
): Promise<PublishedPost> {
  const first: ContainerPart = { index: 0, text: post.text, media: post.media };
  if ((post.thread?.length ?? 0) === 0 && !post.firstComment) {
    return publishThroughContainer(thread.flowFor(first, null), post);
  }
  return publishThread(thread.network, post, {
    async send(part, parent) {
      const flow = thread.flowFor(part, parent);
      let step = part.step;
      if (step === null) {
        step = { made_at: flow.graph.now() };
        await part.saveStep(step);
      }
      return publishThroughContainer(flow, {
        text: part.text,
        step,
        saveStep: part.saveStep,
        signal: post.signal,
      });
    },
    async find(part, parent) {
      // No step: the part's attempt stopped before anything went out. A container: it says what became
      // of the part, and sending resumes from it.
      const madeAt = part.step?.made_at;
      if (typeof madeAt !== "number" || typeof part.step?.container === "string") return null;
      const flow = thread.flowFor(part, parent);
      const find = { text: part.text, since: madeAt - CLOCK_SLACK_MS };
      return findMetaPost(flow.graph, flow, flow.token, find, post.signal);
    },
    ...(thread.comment && { comment: (text: string, root: SentPart) => thread.comment!(text, root) }),
  });
}
