import type { Post, PostStatus, Target } from "../../contract/resources.ts";
import { WaitForStatusError } from "../errors.ts";
import { pause } from "../pause.ts";
import type { RequestOptions } from "../requester.ts";

export interface WaitForOptions {
  /** How long to wait in total, in ms. Default 60 000. */
  timeoutMs?: number;
  /** Time between polls, in ms. Default 1 000. */
  intervalMs?: number;
  signal?: AbortSignal;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 60_000;
export const DEFAULT_WAIT_INTERVAL_MS = 1_000;

/** The two reads waiting needs. */
export interface PostReader {
  get(id: string, options: RequestOptions): Promise<Post>;
  targets(id: string, options: RequestOptions): Promise<{ data: Target[] }>;
}

/**
 * Polls a post until its status is one of `wanted`. A scheduled post is not polled before its due
 * time (every poll counts against the plan's API calls). Gives up early when the post can no longer
 * get there by itself: it is published (final), or it is a draft because publishing failed on every
 * network (it stays a draft until someone publishes it again).
 */
export async function waitForStatus(
  reader: PostReader,
  id: string,
  wanted: readonly PostStatus[],
  options: WaitForOptions = {},
): Promise<Post> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_WAIT_INTERVAL_MS;
  const deadline = Date.now() + timeoutMs;
  const goal = wanted.join(" or ");

  for (;;) {
    const post = await reader.get(id, { signal: options.signal });
    if (wanted.includes(post.status)) return post;
    if (post.status === "published") {
      throw giveUp(id, post.status, `Post ${id} is published, so it will not become ${goal}.`);
    }
    if (post.status === "draft" && (await everyNetworkFailed(reader, id, options.signal))) {
      throw giveUp(
        id,
        post.status,
        `Post ${id} went back to draft: publishing failed on every network. posts.targets("${id}") shows each network's error.`,
      );
    }

    const now = Date.now();
    if (now >= deadline) {
      throw giveUp(
        id,
        post.status,
        `Post ${id} is still ${post.status} after ${timeoutMs} ms; it did not become ${goal}.`,
      );
    }
    const untilDue = post.status === "scheduled" && post.scheduled_at !== null ? post.scheduled_at - now : 0;
    await pause(Math.min(Math.max(intervalMs, untilDue), deadline - now), options.signal);
  }
}

async function everyNetworkFailed(reader: PostReader, id: string, signal: AbortSignal | undefined) {
  const { data } = await reader.targets(id, { signal });
  return data.length > 0 && data.every((target) => target.status === "failed");
}

function giveUp(id: string, status: PostStatus, message: string): WaitForStatusError {
  return new WaitForStatusError(
    message,
    {
      status: null,
      requestId: null,
      headers: new Headers(),
      body: null,
      method: "GET",
      path: `/posts/${encodeURIComponent(id)}`,
    },
    status,
  );
}
