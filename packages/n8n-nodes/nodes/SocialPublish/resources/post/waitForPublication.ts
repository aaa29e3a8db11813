import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { NodeOperationError, sleep } from "n8n-workflow";
import { apiRequest } from "../../../shared/transport";

/** How often the post is read once it is due. */
export const POLL_INTERVAL_MS = 2000;

interface PostLike extends IDataObject {
  id: string;
  status: string;
  scheduled_at: number | null;
}

const isPending = (post: PostLike) => post.status === "scheduled" || post.status === "publishing";

/**
 * Waits until a scheduled post has published, reading it only once it is due. A post every network
 * refused goes back to draft: that is an error listing each network's reason. Stops when the execution
 * is cancelled, and after `timeoutMs`.
 */
export async function waitForPublication(
  this: IExecuteFunctions,
  created: PostLike,
  timeoutMs: number,
  itemIndex: number,
): Promise<IDataObject> {
  const deadline = Date.now() + timeoutMs;
  const path = `/posts/${encodeURIComponent(created.id)}`;
  let post = created;
  while (isPending(post)) {
    if (this.getExecutionCancelSignal()?.aborted) {
      throw new NodeOperationError(
        this.getNode(),
        `Stopped waiting for post ${post.id}: the execution was cancelled`,
        {
          itemIndex,
        },
      );
    }
    const now = Date.now();
    if (now >= deadline) {
      throw new NodeOperationError(
        this.getNode(),
        `Post ${post.id} is still ${post.status} after the wait timeout`,
        {
          description:
            "The post was created and will still publish at its time. Raise Wait Timeout, or turn off Wait Until Published.",
          itemIndex,
        },
      );
    }
    const untilDue = (post.scheduled_at ?? 0) - now;
    await sleep(Math.min(POLL_INTERVAL_MS, Math.max(untilDue, 0) || POLL_INTERVAL_MS, deadline - now));
    if (Date.now() < (post.scheduled_at ?? 0)) continue;
    post = (await apiRequest.call(this, { method: "GET", path, itemIndex })) as PostLike;
  }
  if (post.status === "draft") {
    const targets = (await apiRequest.call(this, { method: "GET", path: `${path}/targets`, itemIndex })) as {
      data?: Array<{ platform: string; error: string | null }>;
    };
    const reasons = (targets.data ?? []).map((target) => `${target.platform}: ${target.error ?? "failed"}`);
    throw new NodeOperationError(this.getNode(), `Post ${post.id} did not publish on any network`, {
      description: reasons.join("; ") || "Every network refused the post.",
      itemIndex,
    });
  }
  return post;
}
