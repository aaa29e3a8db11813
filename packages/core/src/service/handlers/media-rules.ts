import { type MediaKind, mediaKindOfType, mediaTypeOfUrl } from "../../contract/media-kinds.ts";
import { NETWORK_RULES, type NetworkId } from "../../contract/networks.ts";
import type { MediaRef } from "../../store/types.ts";
import type { Caller, ServiceDeps } from "../context.ts";
import { badRequest } from "../http-error.ts";

/** One media item as checked: its reference as given, its MIME type where it can be told, its kind. */
export interface CheckedMedia {
  ref: string;
  type: string | null;
  kind: MediaKind | null;
}

/**
 * Step 4 of decisions.md's check order, the media rules, from the contract's network rules: a network
 * that needs media gets some, every item is a URL or one of the user's med_ ids, a network that needs a
 * video (`needsVideo`) is not given media known to be an image, and (rich posts) each network's
 * `carries` takes the items: how many images and videos, mixed or not, the fewest of a carousel.
 * `where` names the part of a thread the media belongs to ("" for the post itself). The same for test
 * and live keys: nothing here depends on the mode.
 */
export async function checkMedia(
  deps: ServiceDeps,
  caller: Caller,
  platforms: readonly NetworkId[],
  media: readonly MediaRef[],
  where = "",
): Promise<CheckedMedia[]> {
  if (media.length === 0) {
    if (where !== "") return [];
    const needing = platforms.filter((p) => NETWORK_RULES[p].needsMedia);
    if (needing.length === 0) return [];
    throw badRequest(
      `${listOf(needing)} ${verbFor(needing, "needs", "need")} media: add media (an image or video URL, or a med_ id), or remove ${pronounFor(needing)} from platforms.`,
    );
  }
  const checked: CheckedMedia[] = [];
  for (const [i, item] of media.entries()) {
    const field = `${where === "" ? "" : `${where.trim()}.`}media${media.length === 1 ? "" : `[${i}]`}`;
    const type = await typeOf(deps, caller, item.ref, field);
    checked.push({ ref: item.ref, type, kind: type === null ? null : mediaKindOfType(type) });
  }
  for (const item of checked) checkMediaKind(platforms, item.kind, item.type, where);
  checkCarried(platforms, checked, where);
  return checked;
}

/** The MIME type of one reference (null when a URL's cannot be told yet); 400 for what is not media. */
async function typeOf(deps: ServiceDeps, caller: Caller, ref: string, field: string): Promise<string | null> {
  if (ref.startsWith("med_")) {
    const record = await deps.store.getMedia(caller.user.id, ref);
    if (!record) {
      throw badRequest(`${field} ${ref} was not found; upload it with POST /media first, or give a URL.`);
    }
    return record.type;
  }
  if (isHttpUrl(ref)) return mediaTypeOfUrl(ref);
  throw badRequest(`${field} must be an http(s) URL of an image or video, or a med_ id from POST /media.`);
}

/**
 * Refuses media known to be an image for networks that take videos only. Media whose kind cannot be
 * told yet (a URL without a known extension) passes: the network's adapter checks the bytes it fetches
 * at publish time and fails that network alone, saying the same.
 */
function checkMediaKind(
  platforms: readonly NetworkId[],
  kind: MediaKind | null,
  type: string | null,
  where: string,
): void {
  if (kind !== "image") return;
  const needing = platforms.filter((p) => NETWORK_RULES[p].needsVideo);
  if (needing.length === 0) return;
  const whose = where === "" ? "the post's media" : `the media of ${where.trim()}`;
  throw badRequest(
    `${listOf(needing)} ${verbFor(needing, "needs", "need")} a video, and ${whose} is an image (${type}): give a video (MP4, MOV, WebM, …) as media, or remove ${pronounFor(needing)} from platforms.`,
  );
}

/**
 * Each network's `carries.media`: the post's items must fit in one of its posts (decisions.md "Rich
 * posts"), or it is refused naming the network and its limit. Items whose kind cannot be told yet count
 * toward the total only.
 */
function checkCarried(platforms: readonly NetworkId[], media: readonly CheckedMedia[], where: string): void {
  const images = media.filter((m) => m.kind === "image").length;
  const videos = media.filter((m) => m.kind === "video").length;
  const total = media.length;
  const of = where === "" ? "the post has" : `${where.trim()} has`;
  for (const platform of platforms) {
    const rule = NETWORK_RULES[platform];
    const c = rule.carries.media;
    const fix = `or remove ${platform} from platforms.`;
    if (images > c.maxImages) {
      throw badRequest(
        c.maxImages === 0
          ? `${platform} takes no images (${of} ${images}): give a video, ${fix}`
          : `${platform} takes at most ${c.maxImages} ${c.maxImages === 1 ? "image" : "images"} in one post (${of} ${images}): give fewer, ${fix}`,
      );
    }
    if (videos > c.maxVideos) {
      throw badRequest(
        `${platform} takes at most ${c.maxVideos} ${c.maxVideos === 1 ? "video" : "videos"} in one post (${of} ${videos}): give fewer, ${fix}`,
      );
    }
    if (total > c.maxItems) {
      throw badRequest(
        `${platform} takes at most ${c.maxItems} media ${c.maxItems === 1 ? "item" : "items"} in one post (${of} ${total}): give fewer, ${fix}`,
      );
    }
    if (!c.mixed && images > 0 && videos > 0) {
      throw badRequest(
        `${platform} does not mix images and videos in one post (${of} ${images} ${images === 1 ? "image" : "images"} and ${videos} ${videos === 1 ? "video" : "videos"}): give images only or one video, ${fix}`,
      );
    }
    if (total > 1 && total < c.minItemsWhenSeveral) {
      throw badRequest(
        `${platform} takes ${c.minItemsWhenSeveral} to ${c.maxItems} media items when there is more than one (${of} ${total}): give one or at least ${c.minItemsWhenSeveral}, ${fix}`,
      );
    }
  }
}

export const listOf = (ids: readonly NetworkId[]) =>
  new Intl.ListFormat("en", { type: "conjunction" }).format(ids);
const verbFor = (ids: readonly NetworkId[], one: string, many: string) => (ids.length === 1 ? one : many);
const pronounFor = (ids: readonly NetworkId[]) => (ids.length === 1 ? "it" : "them");

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}
