import type { NetworkId } from "../contract/networks.ts";
import {
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
  type PublishStep,
} from "../networks/adapter.ts";

/*
 * Publishing a thread part by part (decisions.md "Rich posts"), the same for every network that threads:
 * before a part is sent its index is saved as a step, and after it its id, so that after a retry, a
 * restart or `kill -9` the next attempt continues from the first part not published and never sends a
 * part twice. A part whose answer never came is looked for (`find`) before it is sent again; where the
 * network gives no way to look, the attempt fails as "outcome unknown" for that part rather than risk
 * a second copy. The first comment follows the first part, and its failure never fails the post; one
 * whose answer never came is looked for the same way (`findComment`) before it is added again.
 *
 * The progress lives in the target's publish step under keys of its own (THREAD_KEYS); the adapter's
 * own step (a media container of the part being sent) sits beside them and is cleared between parts.
 */

/** A part the network accepted: its id, link, and what a reply to it needs (Bluesky's uri and cid). */
export interface SentPart {
  id: string;
  permalink: string;
  /** The network's own reference for replies, when the id is not enough (JSON text, never a secret). */
  ref?: string;
}

/** One part as the adapter sends it: its place, text and media, and the adapter's own saved step. */
export interface PartToSend {
  /** 0 for the first part (the post itself). */
  index: number;
  /** How many parts the thread has. */
  count: number;
  text: string;
  media: readonly MediaFile[];
  /** What an earlier attempt saved for this part with `saveStep` (a container), or null. */
  step: PublishStep | null;
  /** Saves the adapter's own progress on this part, beside the thread's. */
  saveStep(step: PublishStep): Promise<void>;
}

export interface ThreadSteps {
  /** Sends one part: the first alone, each later one as a reply to `parent` (the part before) under `root`. */
  send(part: PartToSend, parent: SentPart | null, root: SentPart | null): Promise<SentPart>;
  /**
   * Looks for a part an attempt sent without hearing back (a reply to `parent` with the part's text).
   * Null when the network says it is not there. Absent when the network gives no way to tell.
   */
  find?(part: PartToSend, parent: SentPart | null, root: SentPart | null): Promise<SentPart | null>;
  /** Adds the first comment to the first part. Absent when the network takes none (it is then noted). */
  comment?(text: string, root: SentPart): Promise<SentPart>;
  /**
   * Looks for a first comment an attempt added without hearing back. Null when the network says it is
   * not there (it is then added). Absent when the network gives no way to tell: the comment is then
   * failed as "outcome unknown" rather than risk a second copy.
   */
  findComment?(text: string, root: SentPart): Promise<SentPart | null>;
}

/** The publish step's keys that hold a thread's progress. */
export const THREAD_KEYS = {
  /** JSON array of SentPart: the parts published, in order. */
  sent: "thread_sent",
  /** The index of the part being sent, whose answer has not been saved; null when none. */
  sending: "thread_sending",
  /** The first comment: "sending" while it is sent, then "published" or "failed". */
  comment: "thread_comment",
  commentPermalink: "thread_comment_permalink",
  commentError: "thread_comment_error",
} as const;
const THREAD_KEY_SET = new Set<string>(Object.values(THREAD_KEYS));

/** The parts a thread's step says were published, in order (empty when none). */
export function sentParts(step: PublishStep | null): SentPart[] {
  const raw = step?.[THREAD_KEYS.sent];
  if (typeof raw !== "string") return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as SentPart[]) : [];
  } catch {
    return [];
  }
}

/**
 * Publishes `post` (its text and media, then `post.thread`'s parts, then its first comment) through
 * `steps`. Answers the first part as the post, with every part and the first comment's outcome.
 * A part that fails throws the network's error with the part named; the parts before it stay published
 * and are listed in the step.
 */
export async function publishThread(
  network: NetworkId,
  post: PublishInput,
  steps: ThreadSteps,
): Promise<PublishedPost> {
  const parts = [{ text: post.text, media: post.media }, ...(post.thread ?? [])];
  let threadStep: Record<string, string | number | boolean | null> = pick(post.step, true);
  let ownStep: PublishStep | null = hasKeys(pick(post.step, false)) ? pick(post.step, false) : null;
  const sent = sentParts(post.step);
  const save = async (next: Record<string, string | number | boolean | null>, own: PublishStep | null) => {
    threadStep = next;
    await post.saveStep({ ...(own ?? {}), ...next });
  };

  for (let index = sent.length; index < parts.length; index++) {
    const part = parts[index] as (typeof parts)[number];
    const root = sent[0] ?? null;
    const parent = sent[index - 1] ?? null;
    const toSend: PartToSend = {
      index,
      count: parts.length,
      text: part.text,
      media: part.media,
      step: ownStep,
      saveStep: async (own) => {
        ownStep = own;
        await save(threadStep, own);
      },
    };
    let done: SentPart | null = null;
    if (threadStep[THREAD_KEYS.sending] === index) {
      // An attempt sent this part and its answer was never saved: it may be out there.
      if (!steps.find) {
        throw new NetworkError(
          network,
          "unknown",
          `${partName(index, parts.length)}: the outcome of sending it is unknown and ${network} gives no way to check, so it is not sent again.`,
        );
      }
      done = await named(index, parts.length, () => steps.find?.(toSend, parent, root) ?? null);
    }
    if (done === null) {
      await save({ ...threadStep, [THREAD_KEYS.sending]: index }, ownStep);
      try {
        done = await named(index, parts.length, () => steps.send(toSend, parent, root));
      } catch (error) {
        // The network answered (a refusal, a wait) or the request never left: the part is not out
        // there, so the next attempt sends it rather than failing it as "outcome unknown".
        if (error instanceof NetworkError && error.kind !== "unknown") {
          await save({ ...threadStep, [THREAD_KEYS.sending]: null }, ownStep).catch(() => {});
        }
        throw error;
      }
    }
    sent.push(done);
    ownStep = null;
    await save(
      { ...threadStep, [THREAD_KEYS.sent]: JSON.stringify(sent), [THREAD_KEYS.sending]: null },
      null,
    );
  }

  const first = sent[0] as SentPart;
  const published: PublishedPost = { id: first.id, permalink: first.permalink };
  if (parts.length > 1) published.parts = sent.map(({ id, permalink }) => ({ id, permalink }));
  if (post.firstComment)
    published.firstComment = await firstComment(post.firstComment, first, steps, threadStep, save);
  return published;
}

async function firstComment(
  text: string,
  root: SentPart,
  steps: ThreadSteps,
  threadStep: Record<string, string | number | boolean | null>,
  save: (next: Record<string, string | number | boolean | null>, own: PublishStep | null) => Promise<void>,
): Promise<NonNullable<PublishedPost["firstComment"]>> {
  const state = threadStep[THREAD_KEYS.comment];
  if (state === "published" || state === "failed") {
    return {
      status: state,
      permalink: (threadStep[THREAD_KEYS.commentPermalink] as string | null) ?? null,
      error: (threadStep[THREAD_KEYS.commentError] as string | null) ?? null,
    };
  }
  const failed = async (error: string) => {
    await save({ ...threadStep, [THREAD_KEYS.comment]: "failed", [THREAD_KEYS.commentError]: error }, null);
    return { status: "failed" as const, permalink: null, error };
  };
  const published = async (comment: SentPart) => {
    await save(
      {
        ...threadStep,
        [THREAD_KEYS.comment]: "published",
        [THREAD_KEYS.commentPermalink]: comment.permalink,
      },
      null,
    );
    return { status: "published" as const, permalink: comment.permalink, error: null };
  };
  if (state === "sending") {
    // An attempt added it and its answer was never saved: it may be there.
    if (!steps.findComment) {
      return failed(
        "the outcome of adding it is unknown (the service stopped meanwhile), so it was not sent again",
      );
    }
    let found: SentPart | null;
    try {
      found = await steps.findComment(text, root);
    } catch (error) {
      // The post stands; not knowing whether its comment is there, it is not added again.
      const message = error instanceof Error ? error.message : String(error);
      return failed(
        `the outcome of adding it is unknown and looking for it failed (${message}), so it was not sent again`,
      );
    }
    if (found) return published(found);
  }
  if (!steps.comment) return { status: "failed", permalink: null, error: "this network takes no comment" };
  await save({ ...threadStep, [THREAD_KEYS.comment]: "sending" }, null);
  try {
    return await published(await steps.comment(text, root));
  } catch (error) {
    // The post stands: a first comment that fails is reported on the target, never fails the post.
    return failed(error instanceof Error ? error.message : String(error));
  }
}

/** Runs one part's step, naming the part in a failure when the thread has more than one. */
async function named<T>(index: number, count: number, run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (count === 1 || !(error instanceof NetworkError)) throw error;
    throw new NetworkError(error.network, error.kind, `${partName(index, count)}: ${error.message}`, {
      ...(error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs }),
      ...(error.status !== undefined && { status: error.status }),
      cause: error,
    });
  }
}

const partName = (index: number, count: number) => `part ${index + 1} of ${count}`;

function pick(step: PublishStep | null, thread: boolean): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(step ?? {})) {
    if (THREAD_KEY_SET.has(key) === thread) out[key] = value;
  }
  return out;
}

const hasKeys = (value: object) => Object.keys(value).length > 0;
