import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { NodeOperationError, sleep } from "n8n-workflow";
import { apiRequest } from "../../../shared/transport";
import { type PostLike, publishOutcome } from "./outcome";

/** The longest pause between two reads of the post once it is due. */
export const POLL_INTERVAL_MS = 2000;
/** The first pause after the due time; it doubles up to POLL_INTERVAL_MS. */
const FIRST_POLL_MS = 250;

const isPending = (post: PostLike) => post.status === "scheduled" || post.status === "publishing";

/**
 * Waits until a scheduled post has published, reading it only once it is due, and answers it with its
 * failures (see publishOutcome). A post every network refused goes back to draft: that is an error
 * listing each network's reason. Stops when the execution is cancelled, and after `timeoutMs`.
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
  let pollsAfterDue = 0;
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
    const due = post.scheduled_at ?? 0;
    const pause =
      now < due
        ? Math.min(due - now, POLL_INTERVAL_MS)
        : Math.min(FIRST_POLL_MS * 2 ** pollsAfterDue++, POLL_INTERVAL_MS);
    await sleep(Math.min(pause, deadline - now));
    if (Date.now() < due) continue;
    post = (await apiRequest.call(this, { method: "GET", path, itemIndex })) as PostLike;
  }
  return await publishOutcome.call(this, post, itemIndex);
}
