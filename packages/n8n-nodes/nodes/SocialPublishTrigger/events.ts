import type { INodePropertyOptions } from "n8n-workflow";
import { EVENT_TYPES, type EventType } from "../shared/contract.generated";
import { capitalize } from "../shared/labels";

// Keyed by the generated event types, so a type added to the contract fails the build until described.
const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  "post.published": "A post published on a network (one event per network)",
  "post.scheduled": "A post was queued for a later time",
  "post.failed": "A network refused a post (one event per network)",
  "post.deleted": "A post was deleted or its schedule cancelled",
  "account.connected": "An account was connected",
  "account.disconnected": "An account was disconnected or needs to be authorized again",
  "media.processed": "Uploaded media is ready to use",
  "analytics.daily": "The analytics summary of the day that ended (UTC)",
};

export const EVENT_OPTIONS: INodePropertyOptions[] = EVENT_TYPES.map((type) => ({
  name: capitalize(type),
  value: type,
  description: EVENT_DESCRIPTIONS[type],
}));

/** The selected events as a sorted list without duplicates, for comparing with the service's copy. */
export function normalizeEvents(events: unknown): string[] {
  const list = Array.isArray(events) ? events : typeof events === "string" ? events.split(",") : [];
  return [...new Set(list.map((event) => String(event).trim()).filter((event) => event !== ""))].sort();
}

export function sameEvents(a: unknown, b: unknown): boolean {
  const left = normalizeEvents(a);
  const right = normalizeEvents(b);
  return left.length === right.length && left.every((event, index) => event === right[index]);
}
