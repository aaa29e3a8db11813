import { measure } from "@socialpub/core/text";
import type { LengthUnit, NetworkRule } from "../api/types.ts";

/**
 * Length of `text` as a network counts it: code points, user-perceived characters, or X's weights (a
 * URL 23, CJK and emoji 2). The service's own measure, so the page's count is the one the service cuts
 * captions by; imported from core's `./text` entry so the bundle takes only the text code.
 */
export function lengthOf(text: string, unit: LengthUnit): number {
  return measure(text, unit);
}

export interface TextFit {
  /** The adapted text's length, in the network's unit. */
  length: number;
  limit: number;
  unit: LengthUnit;
  /** The caption's length in the same unit. */
  captionLength: number;
  /** The network got a shortened caption. */
  truncated: boolean;
  /** Share of the limit used, 0–1. */
  ratio: number;
}

/** How a network's adapted text measures against its limit, and whether the caption was cut. */
export function textFit(caption: string, text: string, rule: NetworkRule, hasMedia: boolean): TextFit {
  const limit = hasMedia && rule.textLimitWithMedia !== undefined ? rule.textLimitWithMedia : rule.textLimit;
  const length = lengthOf(text, rule.lengthUnit);
  const captionLength = lengthOf(caption, rule.lengthUnit);
  return {
    length,
    limit,
    unit: rule.lengthUnit,
    captionLength,
    truncated: text !== caption && captionLength > limit,
    ratio: limit > 0 ? Math.min(1, length / limit) : 0,
  };
}

/** The word for a unit on the page: X's weighted count is still "characters" to its users, as X says. */
export function unitName(unit: LengthUnit): string {
  return unit === "graphemes" ? "graphemes" : "characters";
}

/** "273 / 280 characters", "300 / 300 graphemes" */
export function describeFit(fit: TextFit): string {
  return `${fit.length.toLocaleString("en")} / ${fit.limit.toLocaleString("en")} ${unitName(fit.unit)}`;
}
