import type { z } from "zod";

/** What each request field must be, for messages that say how to fix the request. */
const FIELD_HINTS: Record<string, string> = {
  caption: "a string",
  platforms: 'an array of network ids, such as ["x", "bluesky"]',
  schedule_at: "Unix seconds, Unix milliseconds, or an ISO 8601 string with a zone offset",
  media: "a string: an http(s) URL of an image or video, or a med_ id",
  draft: "true or false",
  post_id: "a post id string",
  platform:
    "a network id (tiktok, instagram, youtube, x, linkedin, facebook, threads, pinterest, reddit, bluesky, discord, telegram)",
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
  const hint = FIELD_HINTS[field];
  if (hint) return `${field} must be ${hint}.`;
  return `${issue.path.join(".")}: ${issue.message}.`;
}
