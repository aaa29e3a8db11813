import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import type { PostRecord } from "../../store/types.ts";
import type { Caller, ServiceDeps } from "../context.ts";
import { HttpError } from "../http-error.ts";

/**
 * The caller's post `id`, to `act` on it ("edit", "publish", "retry"): 404 when the user has no such post, 403
 * when it was made with a key of the other mode — its networks resolve among the accounts of that
 * mode, so only a key of the post's mode changes or publishes it.
 */
export async function postForKey(
  deps: ServiceDeps,
  caller: Caller,
  id: string,
  act: "edit" | "publish" | "retry",
): Promise<PostRecord> {
  const post = await deps.store.getPost(caller.user.id, id);
  if (!post) throw new HttpError(404, CONTRACT_MESSAGES.postNotFound);
  if (post.mode !== caller.key.mode) {
    throw new HttpError(
      403,
      `This post was made with a ${post.mode} key and publishes ${post.mode === "live" ? "to the real networks" : "to the sandbox"}; ${act} it with a ${post.mode} key.`,
    );
  }
  return post;
}
