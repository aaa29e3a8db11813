import { mediaKindOfType, mediaTypeOfUrl, NETWORK_RULES, type NetworkId } from "@socialpub/core";
import { DIRECT_NETWORKS, requiredInputsText } from "./direct/credentials.ts";

export type LeftOutReason = "needs-media" | "needs-video" | "not-connected" | "no-credentials";

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
 * `needsMedia`) are left out, and with media whose URL names an image, networks that take videos only
 * (`needsVideo`), so that one of them does not fail the post for all the others. A `med_` id, or a URL
 * without a known extension, is not classed here: the service decides.
 */
export function choosePlatforms(requested: readonly NetworkId[], media: string | undefined): PlatformChoice {
  const type = media === undefined ? null : mediaTypeOfUrl(media);
  const isImage = type !== null && mediaKindOfType(type) === "image";
  const platforms: NetworkId[] = [];
  const leftOut: LeftOut[] = [];
  for (const platform of requested) {
    const rule = NETWORK_RULES[platform];
    if (media === undefined && rule.needsMedia) leftOut.push({ platform, reason: "needs-media" });
    else if (isImage && rule.needsVideo) leftOut.push({ platform, reason: "needs-video" });
    else platforms.push(platform);
  }
  return { platforms, leftOut };
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
  if (reason === "no-credentials")
    return `${name} has no credentials among the inputs: it was left out. ${directHint(platform) ?? `Posting to ${name} needs a service (\`base-url\`).`}`;
  return `${name} is not connected to the account: it was left out. Connect it in the service to include it.`;
}
