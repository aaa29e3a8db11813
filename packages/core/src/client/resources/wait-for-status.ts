import type { Post, PostStatus } from "../../contract/resources.ts";
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

/**
 * Polls a post until its status is one of `wanted`. A scheduled post is not polled before its due
 * time (every poll counts against the plan's API calls). Gives up early when the post can no longer
 * get there: it is published (final), or it went back to draft after publishing was attempted (every
 * network failed).
 */
export async function waitForStatus(
  get: (id: string, options: RequestOptions) => Promise<Post>,
  id: string,
  wanted: readonly PostStatus[],
  options: WaitForOptions = {},
): Promise<Post> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_WAIT_INTERVAL_MS;
  const deadline = Date.now() + timeoutMs;
  const goal = wanted.join(" or ");
  let attempted = false;

  for (;;) {
    const post = await get(id, { signal: options.signal });
    if (wanted.includes(post.status)) return post;
    if (post.status === "published") {
      throw giveUp(id, post.status, `Post ${id} is published, so it will not become ${goal}.`);
    }
    if (post.status === "draft" && attempted) {
      throw giveUp(
        id,
        post.status,
        `Post ${id} went back to draft: publishing failed on every network. posts.targets("${id}") shows each network's error.`,
      );
    }
    if (post.status === "scheduled" || post.status === "publishing") attempted = true;

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
