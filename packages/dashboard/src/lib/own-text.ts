import type { NetworkRule } from "../api/types.ts";
import { lengthOf } from "./text-length.ts";

const ELLIPSIS = "…";

/**
 * Whether a network's text (from GET /posts/{id}/targets) is its own override from `captions` rather
 * than the caption as that network shows it. The caption as shown is the caption itself, or — when it
 * is over the limit — a start of it closed with "…"; anything else is the network's own text. The post
 * resource does not carry the overrides, so the page reads them back from the targets this way.
 */
export function hasOwnText(caption: string, text: string, rule: NetworkRule, hasMedia: boolean): boolean {
  if (text === caption) return false;
  const limit = hasMedia && rule.textLimitWithMedia !== undefined ? rule.textLimitWithMedia : rule.textLimit;
  const cut = text.endsWith(ELLIPSIS) && lengthOf(caption, rule.lengthUnit) > limit;
  return !(cut && caption.startsWith(text.slice(0, -ELLIPSIS.length)));
}
