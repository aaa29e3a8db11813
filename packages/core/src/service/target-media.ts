import type { ContentMedia } from "../contract/rich.ts";
import { postMedia } from "../posting/content.ts";
import { viewMedia } from "../posting/media-view.ts";
import type { PostRecord, TargetRecord } from "../store/types.ts";
import type { ServiceDeps } from "./context.ts";

/**
 * The media a target carries, in order (every part's), with med_ ids resolved to their upload's URL
 * and type: GET /posts/{id}/targets `media`. A target from before rich posts carries the post's one.
 */
export function targetMedia(
  deps: ServiceDeps,
  post: PostRecord,
  target: TargetRecord,
): Promise<ContentMedia[]> {
  const refs = target.parts ? target.parts.flatMap((part) => part.media) : postMedia(post);
  return viewMedia((userId, id) => deps.store.getMedia(userId, id), post.user_id, refs);
}
