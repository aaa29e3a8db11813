import { createHash } from "node:crypto";

/**
 * The Idempotency-Key of a write: the tool's name and its arguments, written canonically (object keys
 * sorted), hashed. A client that retries a call sends the same arguments, so the retry gets the same
 * key and the service replays the first answer instead of publishing again (within the service's
 * 24 hours). `state`, when given, is hashed in too (edit_post: the post as it is before the edit).
 */
export function derivedIdempotencyKey(toolName: string, args: unknown, state?: unknown): string {
  const digest = createHash("sha256")
    .update(canonicalJson([toolName, args, state ?? null]))
    .digest("base64url");
  return `mcp-${toolName}-${digest}`;
}

/** JSON with object keys in sorted order, so equal values always give the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
