import type { z } from "zod";
import { NETWORK_IDS } from "../contract/networks.ts";
import { MAX_CAPTION_LENGTH } from "../contract/requests.ts";
import { NETWORK_OPTION_SCHEMAS } from "../contract/rich.ts";

/** What each request field must be, for messages that say how to fix the request. */
const FIELD_HINTS: Record<string, string> = {
  caption: "a string",
  captions: 'an object of network id → text, such as {"x": "Short.", "linkedin": "Longer."}',
  platforms: 'an array of network ids, such as ["x", "bluesky"]',
  schedule_at: "Unix seconds, Unix milliseconds, or an ISO 8601 string with a zone offset",
  media:
    'an http(s) URL of an image or video or a med_ id, or a list of 1 to 20 of them, each a string or {"url": …} / {"id": "med_…"} with an optional "alt" of at most 1,000 characters',
  thread:
    "a list of 1 to 24 further parts, each {caption?, captions?, media?} (no other keys), with the same rules as the post",
  split: '"shorten" or "thread"',
  first_comment: "a string of 1 to 10,000 characters",
  poll: "{options: [2 to 4 texts of 1 to 100 characters], duration_minutes: a whole number from 1 to 46,080}",
  draft: "true or false",
  post_id: "a post id string",
  platform: `a network id (${NETWORK_IDS.join(", ")})`,
  reach: "a whole number, 0 or more",
  likes: "a whole number, 0 or more",
  comments: "a whole number, 0 or more",
  shares: "a whole number, 0 or more",
  health: "one of healthy, expiring, reauth_required",
  handle: "a string of 1 to 100 characters",
  at: 'Unix seconds, Unix milliseconds, an ISO 8601 string with a zone offset, or "next"',
  url: "a string: the https:// or http:// URL that receives events",
  events:
    "a non-empty array of event types (post.published, post.scheduled, post.failed, post.deleted, account.connected, account.disconnected, media.processed, analytics.daily)",
  type: "an event type (post.published, post.scheduled, post.failed, post.deleted, account.connected, account.disconnected, media.processed, analytics.daily)",
};

/** One sentence for the first problem zod found in a request body or query. */
export function describeBodyError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue || issue.path.length === 0) return "Request body must be a JSON object.";
  // A rule the contract's schemas check themselves (list limits) already says it in a whole sentence.
  if (issue.code === "custom") return issue.message;
  const field = String(issue.path[0]);
  if (issue.code === "too_big" && (field === "caption" || field === "captions")) {
    return `${issue.path.join(".")} is longer than ${MAX_CAPTION_LENGTH.toLocaleString("en")} characters; send a shorter text.`;
  }
  if (field === "captions") return describeCaptionsError(issue);
  if (field === "options") return describeOptionsError(issue);
  const hint = FIELD_HINTS[field];
  if (hint) return `${field} must be ${hint}.`;
  return `${issue.path.join(".")}: ${issue.message}.`;
}

/** `captions`: name the key that is not a network id, or the network whose text is not a string. */
function describeCaptionsError(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys
      .slice(0, 3)
      .map((k) => `"${k.slice(0, 40)}"`)
      .join(", ");
    const more = issue.keys.length > 3 ? ` and ${issue.keys.length - 3} more` : "";
    return `captions keys must be network ids (${NETWORK_IDS.join(", ")}); ${keys}${more} ${issue.keys.length === 1 ? "is" : "are"} not.`;
  }
  if (issue.path.length === 2)
    return `captions.${String(issue.path[1])} must be a string: that network's text.`;
  return `captions must be ${FIELD_HINTS.captions}.`;
}

/** `options`: name the network and the key it does not take, and what it takes. */
function describeOptionsError(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((k) => `"${k.slice(0, 40)}"`).join(", ");
    if (issue.path.length === 1) {
      return `options keys must be networks that take options (${Object.keys(NETWORK_OPTION_SCHEMAS).join(", ")}); ${keys} ${issue.keys.length === 1 ? "is" : "are"} not.`;
    }
    const network = String(issue.path[1]) as keyof typeof NETWORK_OPTION_SCHEMAS;
    const takes = Object.keys(NETWORK_OPTION_SCHEMAS[network]?.shape ?? {}).join(", ");
    return `${where} has no option ${keys}: ${network} takes ${takes}.`;
  }
  if (issue.path.length === 1)
    return 'options must be an object of network id → options, such as {"youtube": {"privacy": "unlisted"}}.';
  return `${where}: ${issue.message}.`;
}
