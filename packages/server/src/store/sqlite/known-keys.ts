import type { ApiKeyRecord, UserRecord } from "@socialpub/core";

/** A key that authenticates, its user (both frozen: every call of the key shares them) and posts version. */
export interface KnownKey {
  key: Readonly<ApiKeyRecord>;
  user: Readonly<UserRecord>;
  postsVersion: number;
}

/**
 * The keys this process has seen authenticate, by key hash, with their users and the users' posts
 * versions: what every authenticated call would otherwise read again inside the transaction that
 * counts it (about a tenth of a GET's CPU, docs/performance.md). It stays exact — a revoked key stops
 * working at once, and a call sees the posts version as it is — because what is kept is what the
 * database holds whenever a call is counted:
 * - only a key found and not revoked is kept; an unknown or revoked key is read on every call;
 * - every write of this process (a revocation, a post, its metrics: any of them may move a key or a
 *   posts version) forgets every key, inside its own transaction, so the calls counted after it read
 *   again;
 * - a commit by any other connection to the file (another process: `socialpub-server keys revoke`)
 *   forgets every key: SQLite's `PRAGMA data_version` moves then, and `checkOtherWriters` reads it in
 *   the transaction that counts, before any key is looked up (that transaction holds the write lock,
 *   so no other commit can come between);
 * - a transaction rolled back as a whole forgets every key, as one it read may be gone with it.
 * So under reads alone a call costs the count's upsert only, and under writes what it cost before.
 * At most `limit` keys are kept; past it they are all forgotten, and kept again as they call.
 */
export class KnownKeys {
  private readonly byHash = new Map<string, KnownKey>();
  private readonly dataVersion: () => number;
  private readonly limit: number;
  private seenVersion: number | null = null;

  /** @param dataVersion reads `PRAGMA data_version` on the store's connection. */
  constructor(dataVersion: () => number, limit = 10_000) {
    this.dataVersion = dataVersion;
    this.limit = limit;
  }

  /** Forgets every key when another connection has committed since the last look. In a transaction. */
  checkOtherWriters(): void {
    const version = this.dataVersion();
    if (version !== this.seenVersion) {
      this.byHash.clear();
      this.seenVersion = version;
    }
  }

  get(hash: string): KnownKey | undefined {
    return this.byHash.get(hash);
  }

  /** Keeps a key that authenticated (not revoked), as read in the transaction that counts its call. */
  remember(hash: string, found: { key: ApiKeyRecord; user: UserRecord; postsVersion: number }): KnownKey {
    if (this.byHash.size >= this.limit) this.byHash.clear();
    const known = {
      key: Object.freeze(found.key),
      user: Object.freeze(found.user),
      postsVersion: found.postsVersion,
    };
    this.byHash.set(hash, known);
    return known;
  }

  forgetAll(): void {
    this.byHash.clear();
  }
}
