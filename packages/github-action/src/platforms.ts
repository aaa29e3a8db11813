import { mediaKindOfType, mediaTypeOfUrl, NETWORK_RULES, type NetworkId } from "@socialpub/core";
import { DIRECT_NETWORKS, requiredInputsText } from "./direct/credentials.ts";
import type { MediaInput } from "./media-input.ts";

export type LeftOutReason =
  | "needs-media"
  | "needs-video"
  | "too-much-media"
  | "not-connected"
  | "no-credentials";

export interface LeftOut {
  platform: NetworkId;
  reason: LeftOutReason;
}

export interface PlatformChoice {
  /** The networks the post goes to, in the order asked for. */
  platforms: NetworkId[];
  leftOut: LeftOut[];
}

/**
 * The networks a post can go to. Without media, networks that cannot post text alone (the contract's
 * `needsMedia`) are left out; with media, networks that cannot carry it (an image where only a video
 * goes, or more items or a mix of kinds than the network's rule `carries`), so that one of them does not
 * fail the post for all the others. A `med_` id, or a URL without a known extension, is not classed
 * here: the service decides.
 */
export function choosePlatforms(
  requested: readonly NetworkId[],
  media: readonly MediaInput[],
): PlatformChoice {
  const kinds = media.map((item) => {
    const type = mediaTypeOfUrl(item.ref);
    return type === null ? null : mediaKindOfType(type);
  });
  const platforms: NetworkId[] = [];
  const leftOut: LeftOut[] = [];
  for (const platform of requested) {
    const rule = NETWORK_RULES[platform];
    if (media.length === 0 && rule.needsMedia) leftOut.push({ platform, reason: "needs-media" });
    else if (kinds.includes("image") && rule.needsVideo) leftOut.push({ platform, reason: "needs-video" });
    else if (!carriesMedia(platform, kinds)) leftOut.push({ platform, reason: "too-much-media" });
    else platforms.push(platform);
  }
  return { platforms, leftOut };
}

/** Whether the network's rule takes this many items of these kinds (unknown kinds count as either). */
function carriesMedia(platform: NetworkId, kinds: readonly ("image" | "video" | null)[]): boolean {
  if (kinds.length <= 1) return true;
  const rule = NETWORK_RULES[platform].carries.media;
  const images = kinds.filter((k) => k === "image").length;
  const videos = kinds.filter((k) => k === "video").length;
  if (kinds.length > rule.maxItems || kinds.length < rule.minItemsWhenSeveral) return false;
  if (images > rule.maxImages || videos > rule.maxVideos) return false;
  return rule.mixed || images === 0 || videos === 0;
}

/** A network's media limit in words: "at most 4 images or 1 video". */
function mediaLimit(platform: NetworkId): string {
  const rule = NETWORK_RULES[platform].carries.media;
  const images =
    rule.maxImages === 0 ? "no images" : `at most ${rule.maxImages} image${rule.maxImages === 1 ? "" : "s"}`;
  const videos = `${rule.maxVideos} video${rule.maxVideos === 1 ? "" : "s"}`;
  return rule.mixed ? `at most ${rule.maxItems} images and videos` : `${images} or ${videos}`;
}

/** The inputs that would include a network in direct mode, or undefined when it needs a service. */
function directHint(platform: NetworkId): string | undefined {
  return DIRECT_NETWORKS.includes(platform)
    ? `Set ${requiredInputsText(platform)} to include it.`
    : undefined;
}

/** What a left-out network needs, in words. */
export function describeLeftOut({ platform, reason }: LeftOut): string {
  const name = NETWORK_RULES[platform].name;
  if (reason === "needs-media")
    return `${name} cannot post text alone: it was left out. Set the \`media\` input to an image or video URL to include it.`;
  if (reason === "needs-video")
    return `${name} takes videos only and the \`media\` input is an image: it was left out. Set \`media\` to a video URL to include it.`;
  if (reason === "too-much-media")
    return `${name} takes ${mediaLimit(platform)} in one post, fewer than the \`media\` input lists: it was left out. List fewer items to include it.`;
  if (reason === "no-credentials")
    return `${name} has no credentials among the inputs: it was left out. ${directHint(platform) ?? `Posting to ${name} needs a service (\`base-url\`).`}`;
  return `${name} is not connected to the account: it was left out. Connect it in the service to include it.`;
}
