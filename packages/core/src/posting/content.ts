import type { NetworkId } from "../contract/networks.ts";
import type { CreatePostBody } from "../contract/requests.ts";
import type { MediaRef, PostRecord } from "../store/types.ts";

/*
 * A post's content as the rules and the planning read it: each network's text, the media list.
 */

/** `media` as a request gives it: one reference, or a list of items (decisions.md "Rich posts"). */
export type PostMediaInput = NonNullable<CreatePostBody["media"]>;

/** The media of a request as stored: each item's reference (URL or med_ id) and alt text, in order. */
export function mediaRefs(media: PostMediaInput | null | undefined): MediaRef[] {
  if (media === undefined || media === null) return [];
  const items = typeof media === "string" ? [media] : media;
  return items.map((item) => {
    if (typeof item === "string") return { ref: item };
    const ref = "url" in item ? item.url : item.id;
    return item.alt === undefined ? { ref } : { ref, alt: item.alt };
  });
}

/** Every media item of a stored post, in order: the list of a rich post, else its one media. */
export function postMedia(post: Pick<PostRecord, "media" | "rich">): MediaRef[] {
  return post.rich?.media ?? (post.media === null ? [] : [{ ref: post.media }]);
}

/** The text a network gets before adapting it to its limit: its override, else the caption. */
export function textOf(post: Pick<PostRecord, "caption" | "captions">, platform: NetworkId): string {
  return post.captions?.[platform] ?? post.caption;
}

/**
 * The overrides that apply: those of targeted networks, not blank. An override for a network the post
 * does not target is ignored (decisions.md), and so is an empty one (the network gets `caption`).
 */
export function overridesFor(
  platforms: readonly NetworkId[],
  captions: Partial<Record<NetworkId, string>> | undefined,
): Partial<Record<NetworkId, string>> | undefined {
  if (!captions) return undefined;
  const out: Partial<Record<NetworkId, string>> = {};
  for (const platform of platforms) {
    const text = captions[platform];
    if (text !== undefined && text.trim() !== "") out[platform] = text;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
