/**
 * Serialised pages of GET /posts, per user and URL (path and query), and posts of GET /posts/{id}, per
 * user and `post:<id>`, each kept with the version of the user's posts it was built at
 * (AuthorizedCall.postsVersion). The store changes that version in the same transaction as any change
 * to the user's posts or their metrics, from any process or instance, and the request reads it in the
 * step that authorises the call; a page is served only to a request that saw the same version, so a
 * cached page is never older than what the store would answer. The version is read before the page, so
 * a page is at least as fresh as the version it is filed under.
 *
 * Bounded by the characters it holds; the least recently used page goes first.
 */
export interface CachedPage {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

interface Entry extends CachedPage {
  readonly version: number;
}

/** About 270 full pages of 100 posts (about 30 000 characters each). */
export const DEFAULT_LIST_PAGE_CACHE_CHARS = 8_000_000;

export class ListPageCache {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;
  private readonly maxChars: number;

  constructor(maxChars = DEFAULT_LIST_PAGE_CACHE_CHARS) {
    this.maxChars = maxChars;
  }

  /** The page for the user and resource (a list's path and query, or `post:<id>`), when built at exactly `version`. */
  get(userId: string, resource: string, version: number): CachedPage | undefined {
    const key = keyOf(userId, resource);
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(userId: string, resource: string, version: number, page: CachedPage): void {
    const key = keyOf(userId, resource);
    const old = this.entries.get(key);
    // A request that authorised before a later one finished building may finish last: keep the newer.
    if (old && old.version > version) return;
    if (old) this.remove(key, old);
    const size = sizeOf(key, page.body);
    if (size > this.maxChars) return;
    this.entries.set(key, { ...page, version });
    this.chars += size;
    for (const [oldest, entry] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.remove(oldest, entry);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.chars -= sizeOf(key, entry.body);
  }
}

// The user id is a generated id (no newline), so the key cannot collide across users.
const keyOf = (userId: string, resource: string) => `${userId}\n${resource}`;
const sizeOf = (key: string, body: string) => key.length + body.length;
