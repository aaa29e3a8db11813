/**
 * Serialised pages of GET /posts, per user and URL (path and query), and posts of GET /posts/{id}, per
 * user and `post:<id>`, each kept with the version of the user's posts it was built at
 * (AuthorizedCall.postsVersion). The store changes that version in the same transaction as any change
 * to the user's posts or their metrics, from any process or instance, and the request reads it in the
 * step that authorises the call; a page is served only to a request that saw the same version, so a
 * cached page is never older than what the store would answer. The version is read before the page, so
 * a page is at least as fresh as the version it is filed under.
 *
 * Bounded by the characters it holds; the least recently used page goes first. A page is kept the
 * second time it is built, not the first (`admit`): a client reading many posts once each — a dashboard,
 * an export — would otherwise fill the cache with pages nobody asks for again, each pushing out one
 * that is, and each outliving V8's young collections only to wait as garbage for a full one (measured
 * under the memory benchmark's reads of random posts: docs/performance.md, "Memory with 1 000 000
 * posts"). A post or page a client polls is kept from its second answer on.
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

/**
 * How many pages built once are remembered (by a 32-bit hash of their key, 64 KB in all), waiting for
 * the second build that admits them. Two keys may share a slot: one then evicts the other's memory of
 * being built, or, when their hashes are equal too, admits it early — either only changes what is
 * kept, never what is served.
 */
const BUILT_ONCE_SLOTS = 16_384;

export class ListPageCache {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;
  private readonly maxChars: number;
  private readonly builtOnce = new Uint32Array(BUILT_ONCE_SLOTS);

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
    else if (!this.admit(key)) return;
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

  /** True the second time `key` is built (see BUILT_ONCE_SLOTS); the first time, remembers it. */
  private admit(key: string): boolean {
    const hash = hashOf(key);
    const slot = hash & (BUILT_ONCE_SLOTS - 1);
    if (this.builtOnce[slot] === hash) return true;
    this.builtOnce[slot] = hash;
    return false;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.chars -= sizeOf(key, entry.body);
  }
}

// The user id is a generated id (no newline), so the key cannot collide across users.
const keyOf = (userId: string, resource: string) => `${userId}\n${resource}`;
const sizeOf = (key: string, body: string) => key.length + body.length;

/** FNV-1a over the key's UTF-16 code units, one pass; never 0, the value of an empty slot. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0 || 1;
}
