import { NetworkError, type NetworkId, type PublishedPost } from "@socialpub/core";

/*
 * Finding the post an attempt whose answer was lost may have made, on a network that lets us choose no
 * key of our own: the account's recent posts are read back, newest first, a page at a time, for one
 * with exactly the text the attempt sent (as the network stores it) made at or after the earliest time
 * the attempt can have published. Reading stops at the first post older than that, so a retry reads
 * only what was made since, and after a fixed number of pages at most: an account that made more posts
 * than that meanwhile cannot be looked through, and its target fails as "outcome unknown" instead of
 * posting a second time.
 */

/** A post as a network lists it back. */
export interface ListedPost {
  id: string;
  /** The text as the network stores it; null when the post has none (or not the kind we made). */
  text: string | null;
  /** When the network says it was made (Unix ms); NaN when it did not say. */
  at: number;
  permalink: string;
}

/** One page of the account's posts, newest first, and the cursor of the next (null on the last). */
export interface ListedPage<C> {
  posts: readonly ListedPost[];
  next: C | null;
}

export interface ReadBack<C> {
  network: NetworkId;
  /** The network's name as errors say it. */
  name: string;
  /** The text to find, exactly as the network stores the text the attempt sent. */
  text: string;
  /** The earliest the attempt can have published (Unix ms): older posts are someone else's. */
  since: number;
  /** The most pages read; each is one request. */
  maxPages: number;
  /** Reads the page at `cursor` (null: the newest). Throws NetworkError. */
  readPage(cursor: C | null): Promise<ListedPage<C>>;
}

/**
 * A text as networks tend to keep it: line ends as LF, no white space around it, Unicode NFC. Both the
 * text sent and the text listed are compared in this form, so a network that trims or normalises what
 * it stores still has its post recognised (and the post is not sent a second time). Linear in the text.
 */
export const asStored = (text: string): string => text.replaceAll("\r\n", "\n").trim().normalize("NFC");

/**
 * The first post in `posts` with exactly `text`, made at or after `since`. One pass, each text compared
 * once, so the work grows with what was listed.
 */
export function firstPostSince(posts: Iterable<ListedPost>, text: string, since: number): ListedPost | null {
  for (const post of posts) {
    if (post.text === text && post.at >= since) return post;
  }
  return null;
}

/**
 * Reads the account's posts back to `since` and answers the one the lost attempt made, or null when
 * none of those made since has its text (the attempt never reached the network: it is sent again).
 * A post without a time is read past, never taken: its age cannot be told.
 */
export async function readBackSince<C>(read: ReadBack<C>): Promise<PublishedPost | null> {
  let cursor: C | null = null;
  for (let page = 0; page < read.maxPages; page++) {
    const { posts, next } = await read.readPage(cursor);
    const found = firstPostSince(posts, read.text, read.since);
    if (found) return { id: found.id, permalink: found.permalink };
    // Newest first: once a post is older than `since`, the rest are too.
    if (next === null || posts.length === 0 || posts.some((p) => p.at < read.since)) return null;
    cursor = next;
  }
  throw new NetworkError(
    read.network,
    "refused",
    `${read.name}: outcome unknown: check the network (the account made more posts since ${new Date(read.since).toISOString()} than are looked through for the one whose answer was lost); it was not sent again, so the post cannot appear twice.`,
  );
}
