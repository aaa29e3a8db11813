import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import { newId } from "../../ids.ts";
import type { RequestContext } from "../context.ts";
import { HttpError } from "../http-error.ts";
import { json } from "../responses.ts";

/**
 * DELETE /posts/{id}: removes a draft, cancels a scheduled post, or removes the record of a published
 * one (it stays on the networks). Atomic against the scheduler: whichever of the two reaches the store
 * first wins, and the post.deleted event names the status the post really had.
 */
export async function deletePost({ deps, caller, params, keptAnswer }: RequestContext): Promise<Response> {
  const now = deps.clock.now();
  const removed = await deps.store.deletePost(caller.user.id, params.id!, (post) => ({
    events: [
      {
        id: newId("evt", now),
        user_id: post.user_id,
        type: "post.deleted",
        created: Math.floor(now / 1000),
        data: { post_id: post.id, previous_status: post.status },
      },
    ],
    idempotency: keptAnswer(200, deleted(post.id)),
  }));
  if (!removed) throw new HttpError(404, CONTRACT_MESSAGES.postNotFound);
  return json(200, deleted(removed.id));
}

const deleted = (id: string) => ({ deleted: true, id });
