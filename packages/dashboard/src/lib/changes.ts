import type { Post } from "../api/types.ts";

/**
 * What a screen reader should hear after a refresh of the post list: posts that appeared and posts
 * whose status changed. Empty when nothing a person would care about changed.
 */
export function describeChanges(before: readonly Post[] | null, after: readonly Post[]): string {
  if (before === null) return "";
  const previous = new Map(before.map((post) => [post.id, post]));
  const messages: string[] = [];
  let added = 0;
  for (const post of after) {
    const old = previous.get(post.id);
    if (old === undefined) added++;
    else if (old.status !== post.status) messages.push(`Post ${post.id} is now ${post.status}.`);
  }
  if (added > 0) messages.unshift(added === 1 ? "1 new post." : `${added} new posts.`);
  return messages.join(" ");
}
