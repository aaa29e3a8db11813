import { type MediaKind, mediaKindOfType, mediaTypeOfUrl } from "../../contract/media-kinds.ts";
import { NETWORK_RULES, type NetworkId } from "../../contract/networks.ts";
import type { Caller, ServiceDeps } from "../context.ts";
import { badRequest } from "../http-error.ts";

/**
 * Step 4 of decisions.md's check order, the media rules, from the contract's network rules: a network
 * that needs media gets some, the media is a URL or one of the user's med_ ids, and a network that
 * needs a video (`needsVideo`) is not given media known to be an image. The same for test and live
 * keys: nothing here depends on the mode.
 */
export async function checkMedia(
  deps: ServiceDeps,
  caller: Caller,
  platforms: readonly NetworkId[],
  media: string | null,
): Promise<void> {
  if (media === null) {
    const needing = platforms.filter((p) => NETWORK_RULES[p].needsMedia);
    if (needing.length === 0) return;
    throw badRequest(
      `${listOf(needing)} ${verbFor(needing, "needs", "need")} media: add media (an image or video URL, or a med_ id), or remove ${pronounFor(needing)} from platforms.`,
    );
  }
  let type: string | null;
  if (media.startsWith("med_")) {
    const record = await deps.store.getMedia(caller.user.id, media);
    if (!record) {
      throw badRequest(`media ${media} was not found; upload it with POST /media first, or give a URL.`);
    }
    type = record.type;
  } else if (isHttpUrl(media)) {
    type = mediaTypeOfUrl(media);
  } else {
    throw badRequest("media must be an http(s) URL of an image or video, or a med_ id from POST /media.");
  }
  checkMediaKind(platforms, type === null ? null : mediaKindOfType(type), type);
}

/**
 * Refuses media known to be an image for networks that take videos only. Media whose kind cannot be
 * told yet (a URL without a known extension) passes: the network's adapter checks the bytes it fetches
 * at publish time and fails that network alone, saying the same.
 */
function checkMediaKind(platforms: readonly NetworkId[], kind: MediaKind | null, type: string | null): void {
  if (kind !== "image") return;
  const needing = platforms.filter((p) => NETWORK_RULES[p].needsVideo);
  if (needing.length === 0) return;
  throw badRequest(
    `${listOf(needing)} ${verbFor(needing, "needs", "need")} a video, and the post's media is an image (${type}): give a video (MP4, MOV, WebM, …) as media, or remove ${pronounFor(needing)} from platforms.`,
  );
}

const listOf = (ids: readonly NetworkId[]) => new Intl.ListFormat("en", { type: "conjunction" }).format(ids);
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
