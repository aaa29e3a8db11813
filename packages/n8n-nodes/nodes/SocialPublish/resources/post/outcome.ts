import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { apiError, apiRequest, sendRequest } from "../../../shared/transport";

/** A post as the service answers it, with the fields this file reads. */
export interface PostLike extends IDataObject {
  id: string;
  status: string;
  scheduled_at: number | null;
}

/** One network that refused a post, and the reason it gave. */
export interface Failure extends IDataObject {
  platform: string;
  error: string;
}

/** The networks of a post that failed, with their reasons, from GET /posts/{id}/targets. */
async function readFailures(this: IExecuteFunctions, postId: string, itemIndex: number): Promise<Failure[]> {
  const targets = (await apiRequest.call(this, {
    method: "GET",
    path: `/posts/${encodeURIComponent(postId)}/targets`,
    itemIndex,
  })) as { data?: Array<{ platform: string; status: string; error: string | null }> };
  return (targets.data ?? [])
    .filter((target) => target.status === "failed")
    .map((target) => ({ platform: target.platform, error: target.error ?? "failed" }));
}

/**
 * What the node outputs for a post it has just published: the post with `failures`, each network that
 * refused it and why (empty when every network published), so a workflow can branch on a partial
 * failure without another call. A post that published on no network went back to draft: that is an
 * error carrying each network's reason (and, for Continue On Fail, the post's id and those reasons).
 */
export async function publishOutcome(
  this: IExecuteFunctions,
  post: PostLike,
  itemIndex: number,
  requestId?: string,
): Promise<IDataObject> {
  const failures = await readFailures.call(this, post.id, itemIndex);
  if (post.status !== "draft") return { ...post, failures };
  const reasons = failures.map((failure) => `${failure.platform}: ${failure.error}`).join("; ");
  const error = new NodeOperationError(this.getNode(), `Post ${post.id} published on no network`, {
    description: `${reasons || "Every network refused the post."}. The post is kept as a draft: fix the cause, then retry the execution or publish the draft with Post → Publish.`,
    itemIndex,
  });
  error.context.postId = post.id;
  error.context.failures = failures;
  if (requestId) error.context.requestId = requestId;
  throw error;
}

/**
 * Publishes a draft now (POST /posts/{id}/publish) and answers its outcome. No Idempotency-Key: the
 * draft's state is the guard — a repeat after it published is refused with 409, and is then answered
 * with the post as it is — while a key would keep a publication that failed on every network and
 * replay that failure to a retry made after the cause was fixed.
 */
export async function publishDraft(this: IExecuteFunctions, postId: string, itemIndex: number) {
  const path = `/posts/${encodeURIComponent(postId)}`;
  const response = await sendRequest.call(this, { method: "POST", path: `${path}/publish`, itemIndex });
  let post = response.body as PostLike;
  if (response.status === 409) {
    post = (await apiRequest.call(this, { method: "GET", path, itemIndex })) as PostLike;
    if (post.status !== "published") throw apiError.call(this, response, itemIndex);
  } else if (response.status < 200 || response.status >= 300) {
    throw apiError.call(this, response, itemIndex);
  }
  return await publishOutcome.call(this, post, itemIndex, response.headers["x-request-id"]);
}
