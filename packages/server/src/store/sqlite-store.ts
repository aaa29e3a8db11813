import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type {
  AccountPatch,
  AccountRecord,
  ApiKeyRecord,
  AttemptLogEntry,
  AttemptRecord,
  AuthorizedCall,
  ClaimedTarget,
  ClaimOptions,
  DeliveryJob,
  DeliveryRecord,
  DeliveryState,
  Effects,
  IdempotencyAnswer,
  IdempotencyRecord,
  KeyMode,
  ListAttemptsOptions,
  ListPostsOptions,
  MediaRecord,
  NetworkId,
  NewEvent,
  OAuthStateRecord,
  PlatformTotals,
  PostPatch,
  PostRecord,
  PostStatus,
  Store,
  TargetMetrics,
  TargetRecord,
  UserRecord,
  WebhookPatch,
  WebhookRecord,
  WebhookStatus,
} from "@socialpub/core";
import { DeliveryClaim, IdempotencyKeyTaken, settledPost } from "@socialpub/core";
import {
  type BackgroundCheckpoints,
  FALLBACK_AUTOCHECKPOINT_PAGES,
  startBackgroundCheckpoints,
} from "./background-checkpoints.ts";
import { ensureDatabaseFolder } from "./database-folder.ts";
import { GroupCommit } from "./group-commit.ts";
import { type KnownKey, KnownKeys } from "./known-keys.ts";
import { migrate } from "./migrate.ts";
import {
  ACCOUNT_COLUMNS,
  accountFromColumns,
  captionsColumn,
  KEY_AND_USER_BY_HASH,
  KEY_COLUMNS,
  keyAndUserFromColumns,
  keyFromColumns,
  POST_COLUMNS,
  postFromColumns,
  TARGET_COLUMNS,
  targetFromColumns,
  toAttempt,
  toAttemptLogEntry,
  toDelivery,
  toEvent,
  toIdempotency,
  toMedia,
  toOAuthState,
  toTarget,
  toWebhook,
  USER_COLUMNS,
  userFromColumns,
} from "./rows.ts";
import { UsageCounter } from "./usage-counter.ts";

/**
 * When a commit reaches the disk (SQLite's `synchronous`, in WAL mode):
 * - "normal" (default): a commit is written to the WAL before the call returns, so it survives the
 *   process being killed (kill -9, a crash, an OOM kill) — the operating system holds the write. Only
 *   the machine itself stopping (power loss, kernel panic) can lose the last commits. The WAL is synced
 *   at checkpoints, and the database is never corrupted either way.
 * - "full": the WAL is also synced at every commit, so an answered write survives power loss too. Each
 *   write then waits for the disk, and because node:sqlite is synchronous that wait holds up every other
 *   request — and every authenticated request writes (the monthly usage counter).
 */
export type Synchronous = "normal" | "full";

export interface SqliteStoreOptions {
  /** A file path, or ":memory:" for a private database that lives as long as the store. */
  path: string;
  synchronous?: Synchronous;
  /**
   * How long a write waits for another process (an admin command, a second server) holding the write
   * lock before it fails. Default 5 s.
   */
  busyTimeoutMs?: number;
  /**
   * Checkpoint the WAL from a thread of its own instead of inside commits (see background-checkpoints.ts):
   * what the server does, so that writes answer sooner. Off by default: a short-lived store (an admin
   * command, a test) has no use for the thread. Ignored for ":memory:".
   */
  checkpointInBackground?: boolean;
}

type Row = Record<string, unknown>;

/**
 * The Store on SQLite through node:sqlite.
 *
 * Durability: WAL journal, `synchronous` as chosen (see `Synchronous`). The default, NORMAL, is what the
 * server promises: a post answered with 201 has been committed to the WAL before the answer is written,
 * so killing the process at any point afterwards — kill -9 included — cannot lose it.
 *
 * Atomicity: node:sqlite is synchronous. Every write runs whole without awaiting, in a savepoint of the
 * transaction (BEGIN IMMEDIATE … COMMIT) that commits the writes asked for in one turn of the event
 * loop together (group-commit.ts), so concurrent requests of this process can never interleave inside
 * one, and IMMEDIATE takes the write lock up front so another process cannot slip a write between our
 * read and our write. No write resolves before its commit.
 */
export class SqliteStore implements Store {
  /** One server per file (server-lock.ts): what a crash left is released at start. */
  readonly shared = false;
  readonly path: string;
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly arrayStatements = new Map<string, StatementSync>();
  private readonly checkpoints: BackgroundCheckpoints | null = null;
  private readonly commits: GroupCommit;
  private readonly knownKeys = new KnownKeys(() => this.getArray("PRAGMA data_version")![0] as number);

  constructor(options: SqliteStoreOptions) {
    const inMemory = options.path === ":memory:";
    this.path = inMemory ? ":memory:" : resolve(options.path);
    if (!inMemory) ensureDatabaseFolder(this.path);
    this.db = new DatabaseSync(this.path, { timeout: options.busyTimeoutMs ?? 5000 });
    // Prepared once like any other statement: exec would parse BEGIN and COMMIT on every transaction.
    this.commits = new GroupCommit(
      this.db,
      (sql) => this.stmt(sql),
      () => this.knownKeys.forgetAll(),
    );
    try {
      this.db.exec("PRAGMA journal_mode = WAL");
      this.db.exec(`PRAGMA synchronous = ${options.synchronous === "full" ? "FULL" : "NORMAL"}`);
      this.db.exec("PRAGMA foreign_keys = ON");
      // Where SQLite keeps what it needs to undo one write of a group commit (its savepoint's journal)
      // and a statement's partial changes: in memory, not in a file of its own written page by page.
      this.db.exec("PRAGMA temp_store = MEMORY");
      migrate(this.db);
      if (options.checkpointInBackground && !inMemory) {
        this.db.exec(`PRAGMA wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
        this.checkpoints = startBackgroundCheckpoints({
          path: this.path,
          synchronous: options.synchronous ?? "normal",
          busyTimeoutMs: options.busyTimeoutMs ?? 5000,
        });
      }
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  // ── plumbing ────────────────────────────────────────────────────────────────────────────────────

  private stmt(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.stmt(sql).run(...params).changes);
  }

  private get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.stmt(sql).get(...params) as Row | undefined;
  }

  private all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.stmt(sql).all(...params) as Row[];
  }

  /** Rows as arrays of column values, in the order the statement selects them. */
  private allArrays(sql: string, ...params: SQLInputValue[]): unknown[][] {
    return this.arrayStatement(sql).all(...params) as unknown as unknown[][];
  }

  /** The first row as an array of column values, in the order the statement selects them. */
  private getArray(sql: string, ...params: SQLInputValue[]): unknown[] | undefined {
    return this.arrayStatement(sql).get(...params) as unknown as unknown[] | undefined;
  }

  private arrayStatement(sql: string): StatementSync {
    let statement = this.arrayStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      statement.setReturnArrays(true);
      this.arrayStatements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs `work` as one atomic write: in a savepoint of the transaction this turn of the event loop
   * commits (group-commit.ts), resolving once that has committed. `work` must be synchronous: that is
   * what keeps it atomic.
   */
  private write<T>(work: () => T): Promise<T> {
    return this.commits.run(() => {
      // Any write may change a key or a user's posts version (triggers move it): the keys known are
      // read again by the calls counted after it.
      this.knownKeys.forgetAll();
      return work();
    });
  }

  /** Writes events to the outbox, with one pending delivery per endpoint that should receive each. */
  private writeEvents(events: readonly NewEvent[] | undefined): void {
    // A post's events (one per network) share their user: its endpoints are read once per call.
    const endpointsOf = new Map<string, WebhookRecord[]>();
    for (const event of events ?? []) {
      this.run(
        "INSERT INTO events (id, user_id, type, created, data, webhook_id) VALUES (?, ?, ?, ?, ?, ?)",
        event.id,
        event.user_id,
        event.type,
        event.created,
        JSON.stringify(event.data ?? null),
        event.webhook_id ?? null,
      );
      let endpoints = endpointsOf.get(event.user_id);
      if (event.webhook_id === undefined && endpoints === undefined) {
        endpoints = this.all(
          "SELECT * FROM webhooks WHERE user_id = ? AND status = 'enabled' ORDER BY created_at, id",
          event.user_id,
        ).map(toWebhook);
        endpointsOf.set(event.user_id, endpoints);
      }
      const receivers =
        event.webhook_id !== undefined
          ? [event.webhook_id]
          : endpoints!.filter((webhook) => webhook.events.includes(event.type)).map((webhook) => webhook.id);
      const due = event.created * 1000;
      for (const webhookId of receivers) {
        this.insertDelivery({
          id: newDeliveryId(),
          event_id: event.id,
          webhook_id: webhookId,
          state: "pending",
          attempts: 0,
          next_attempt_at: due,
          created_at: due,
        });
      }
    }
  }

  /** Writes a change's effects: its events (the outbox) and the answer of the keyed request making it. */
  private writeEffects(effects: Effects | undefined): void {
    if (!effects) return;
    this.writeEvents(effects.events);
    if (effects.idempotency) this.writeIdempotencyAnswer(effects.idempotency);
  }

  /**
   * Replaces the request's in-flight record with its answer (or inserts it, should the claim be gone).
   * A write that is also the claim inserts only where no live record is: otherwise it throws, and the
   * transaction around it, the change included, rolls back.
   */
  private writeIdempotencyAnswer(answer: IdempotencyAnswer): void {
    if (answer.claim) {
      // Expired records are dead weight: the index on expires_at makes clearing them cheap.
      this.run("DELETE FROM idempotency_keys WHERE expires_at <= ?", answer.created_at);
      const inserted = this.run(
        `INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, key) DO NOTHING`,
        answer.user_id,
        answer.key,
        answer.fingerprint,
        answer.status,
        answer.body,
        answer.created_at,
        answer.expires_at,
      );
      if (inserted === 0) throw new IdempotencyKeyTaken(answer.user_id, answer.key);
      return;
    }
    this.run(
      `INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, key) DO UPDATE SET
         fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
         created_at = excluded.created_at, expires_at = excluded.expires_at`,
      answer.user_id,
      answer.key,
      answer.fingerprint,
      answer.status,
      answer.body,
      answer.created_at,
      answer.expires_at,
    );
  }

  private insertDelivery(d: DeliveryRecord): void {
    this.run(
      `INSERT INTO deliveries (id, event_id, webhook_id, state, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      d.id,
      d.event_id,
      d.webhook_id,
      d.state,
      d.attempts,
      d.next_attempt_at,
      d.created_at,
    );
  }

  private writeTargets(postId: string, targets: readonly TargetRecord[]): void {
    targets.forEach((t, position) => {
      this.run(
        `INSERT INTO targets (post_id, platform, position, status, text, permalink, error, published_at,
                              reach, likes, comments, shares, attempts, attempted_at, in_flight,
                              outcome_unknown, next_attempt_at, remote_id, metrics_due_at, metrics_reads,
                              publish_step)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        postId,
        t.platform,
        position,
        ...targetValues(t),
      );
    });
  }

  // ── lifecycle ───────────────────────────────────────────────────────────────────────────────────

  async ping(): Promise<void> {
    this.get("SELECT 1");
  }

  async close(): Promise<void> {
    if (!this.db.isOpen) return;
    this.commits.drain();
    await this.checkpoints?.stop();
    if (!this.db.isOpen) return;
    this.statements.clear();
    this.arrayStatements.clear();
    this.db.close();
  }

  // ── users and keys ──────────────────────────────────────────────────────────────────────────────

  async createUser(user: UserRecord): Promise<void> {
    await this.write(() =>
      this.run(
        "INSERT INTO users (id, email, name, studio, plan, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        user.id,
        user.email,
        user.name,
        user.studio,
        user.plan,
        user.created_at,
      ),
    );
  }

  async getUser(id: string): Promise<UserRecord | null> {
    const row = this.getArray(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, id);
    return row ? userFromColumns(row) : null;
  }

  async findUserByEmail(email: string): Promise<UserRecord | null> {
    const row = this.getArray(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?`, email);
    return row ? userFromColumns(row) : null;
  }

  async listUsers(): Promise<UserRecord[]> {
    return this.allArrays(`SELECT ${USER_COLUMNS} FROM users ORDER BY created_at, id`).map((row) =>
      userFromColumns(row),
    );
  }

  async createKey(key: ApiKeyRecord): Promise<void> {
    await this.write(() =>
      this.run(
        `INSERT INTO api_keys (id, user_id, hash, mode, hint, created_at, revoked_at, name, last_used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        key.id,
        key.user_id,
        key.hash,
        key.mode,
        key.hint,
        key.created_at,
        key.revoked_at,
        key.name ?? null,
        key.last_used_at ?? null,
      ),
    );
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    const row = this.getArray(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = ?`, hash);
    return row ? keyFromColumns(row) : null;
  }

  async listKeys(userId: string): Promise<ApiKeyRecord[]> {
    return this.allArrays(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE user_id = ? ORDER BY rowid`, userId).map(
      (row) => keyFromColumns(row),
    );
  }

  async revokeKey(id: string, at: number, effects?: Effects): Promise<boolean> {
    return this.write(() => {
      const revoked =
        this.run("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", at, id) > 0;
      if (revoked) this.writeEffects(effects);
      return revoked;
    });
  }

  async markKeyUsed(id: string, at: number): Promise<void> {
    // A write like any other: the keys this process knows are read again, with the new time.
    await this.write(() =>
      this.run(
        "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
        at,
        id,
        at,
      ),
    );
  }

  // ── usage ───────────────────────────────────────────────────────────────────────────────────────

  async authorizeCall(keyHash: string, month: string): Promise<AuthorizedCall | null> {
    return this.authorizedCalls.increment(keyHash, month);
  }

  async incrementApiCalls(userId: string, month: string): Promise<number> {
    return (await this.usage.increment(userId, month))!.calls;
  }

  private addCalls(userId: string, month: string, calls: number): number {
    const row = this.getArray(
      `INSERT INTO api_usage (user_id, month, calls) VALUES (?, ?, ?)
       ON CONFLICT (user_id, month) DO UPDATE SET calls = calls + excluded.calls
       RETURNING calls`,
      userId,
      month,
      calls,
    );
    return row![0] as number;
  }

  private readonly usage = new UsageCounter(
    (userId, month, calls) => ({ calls: this.addCalls(userId, month, calls) }),
    (work) => this.commits.run(work),
  );

  /**
   * Calls counted by key, inside the transaction that counts them: the key, its user and the user's
   * posts version as this process knows them (known-keys.ts: exact, checked against other writers once
   * per transaction, forgotten by every write of its own), else read.
   */
  private readonly authorizedCalls = new UsageCounter<AuthorizedCall>(
    (keyHash, month, calls) => {
      const known = this.knownKeys.get(keyHash) ?? this.readKnownKey(keyHash);
      if (!known) return null;
      return { ...known, calls: this.addCalls(known.user.id, month, calls) };
    },
    (work) => this.commits.run(work),
    () => this.knownKeys.checkOtherWriters(),
  );

  /**
   * The key with this hash, its user and posts version, kept for the next calls; null when there is
   * none or it is revoked.
   */
  private readKnownKey(keyHash: string): KnownKey | null {
    const row = this.getArray(KEY_AND_USER_BY_HASH, keyHash);
    if (!row) return null;
    const found = keyAndUserFromColumns(row);
    if (found.key.revoked_at !== null) return null;
    return this.knownKeys.remember(keyHash, found);
  }

  async getApiCalls(userId: string, month: string): Promise<number> {
    const row = this.get("SELECT calls FROM api_usage WHERE user_id = ? AND month = ?", userId, month);
    return row ? (row.calls as number) : 0;
  }

  // ── accounts ────────────────────────────────────────────────────────────────────────────────────

  // Both read on every publish: as arrays, which node:sqlite builds faster than named properties.
  async listAccounts(userId: string, mode: KeyMode): Promise<AccountRecord[]> {
    return this.allArrays(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = ? AND mode = ? ORDER BY rowid`,
      userId,
      mode,
    ).map(accountFromColumns);
  }

  async getAccount(userId: string, mode: KeyMode, platform: NetworkId): Promise<AccountRecord | null> {
    return this.readAccount(userId, mode, platform);
  }

  private readAccount(userId: string, mode: KeyMode, platform: NetworkId): AccountRecord | null {
    const row = this.getArray(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = ? AND mode = ? AND platform = ?`,
      userId,
      mode,
      platform,
    );
    return row ? accountFromColumns(row) : null;
  }

  async putAccount(account: AccountRecord, effects?: Effects): Promise<void> {
    await this.write(() => {
      this.run(
        `INSERT INTO accounts (user_id, mode, platform, handle, followers, health, connected_at, credentials,
                               grant_ends_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (user_id, mode, platform) DO UPDATE SET
           handle = excluded.handle, followers = excluded.followers, health = excluded.health,
           connected_at = excluded.connected_at, credentials = excluded.credentials,
           grant_ends_at = excluded.grant_ends_at`,
        account.user_id,
        account.mode,
        account.platform,
        account.handle,
        account.followers,
        account.health,
        account.connected_at,
        account.credentials,
        account.grant_ends_at ?? null,
      );
      this.writeEffects(effects);
    });
  }

  async updateAccount(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    patch: AccountPatch,
    effectsFor?: (before: AccountRecord, after: AccountRecord) => Effects,
  ): Promise<AccountRecord | null> {
    return this.write(() => {
      const before = this.readAccount(userId, mode, platform);
      if (!before) return null;
      const after: AccountRecord = { ...before, ...definedOnly(patch) };
      this.run(
        "UPDATE accounts SET handle = ?, followers = ?, health = ? WHERE user_id = ? AND mode = ? AND platform = ?",
        after.handle,
        after.followers,
        after.health,
        userId,
        mode,
        platform,
      );
      this.writeEffects(effectsFor?.(before, after));
      return after;
    });
  }

  async setAccountCredentials(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    credentials: string,
    expected?: string,
  ): Promise<boolean> {
    return this.write(
      () =>
        (expected === undefined
          ? this.run(
              "UPDATE accounts SET credentials = ? WHERE user_id = ? AND mode = ? AND platform = ?",
              credentials,
              userId,
              mode,
              platform,
            )
          : this.run(
              "UPDATE accounts SET credentials = ? WHERE user_id = ? AND mode = ? AND platform = ? AND credentials = ?",
              credentials,
              userId,
              mode,
              platform,
              expected,
            )) > 0,
    );
  }

  async deleteAccount(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    effects?: Effects,
  ): Promise<boolean> {
    return this.write(() => {
      const removed =
        this.run(
          "DELETE FROM accounts WHERE user_id = ? AND mode = ? AND platform = ?",
          userId,
          mode,
          platform,
        ) > 0;
      if (removed) this.writeEffects(effects);
      return removed;
    });
  }

  async countAccountsWithCredentials(): Promise<number> {
    return this.get("SELECT count(*) AS n FROM accounts WHERE credentials IS NOT NULL")!.n as number;
  }

  async settleEndingGrants(
    now: number,
    aheadMs: number,
    limit: number,
    effectsFor?: (account: AccountRecord) => Effects,
  ): Promise<AccountRecord[]> {
    return this.write(() => {
      // The health to replace is in the WHERE clause, so the change is made once however often it runs.
      const changed = this.allArrays(
        `UPDATE accounts SET health = CASE WHEN grant_ends_at <= ? THEN 'reauth_required' ELSE 'expiring' END
         WHERE rowid IN (
           SELECT rowid FROM accounts
           WHERE mode = 'live' AND grant_ends_at IS NOT NULL
             AND ((health <> 'reauth_required' AND grant_ends_at <= ?)
               OR (health = 'healthy' AND grant_ends_at <= ?))
           ORDER BY grant_ends_at LIMIT ?)
         RETURNING ${ACCOUNT_COLUMNS}`,
        now,
        now,
        now + aheadMs,
        limit,
      )
        .map(accountFromColumns)
        .sort((a, b) => a.grant_ends_at! - b.grant_ends_at!);
      for (const account of changed) this.writeEffects(effectsFor?.(account));
      return changed;
    });
  }

  async nextGrantChangeAt(aheadMs: number): Promise<number | null> {
    const row = this.get(
      `SELECT min(CASE WHEN health = 'healthy' THEN grant_ends_at - ? ELSE grant_ends_at END) AS at
       FROM accounts
       WHERE mode = 'live' AND grant_ends_at IS NOT NULL AND health <> 'reauth_required'`,
      aheadMs,
    );
    return (row?.at as number | null) ?? null;
  }

  async listAccountsWithoutGrantEnd(
    platforms: readonly NetworkId[],
    after: { user_id: string; platform: NetworkId } | null,
    limit: number,
  ): Promise<AccountRecord[]> {
    if (platforms.length === 0) return [];
    return this.allArrays(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts
       WHERE mode = 'live' AND credentials IS NOT NULL AND grant_ends_at IS NULL
         AND platform IN (${platforms.map(() => "?").join(", ")})
         AND (user_id > ? OR (user_id = ? AND platform > ?))
       ORDER BY user_id, platform LIMIT ?`,
      ...platforms,
      after?.user_id ?? "",
      after?.user_id ?? "",
      after?.platform ?? "",
      limit,
    ).map(accountFromColumns);
  }

  async fillGrantEnd(
    userId: string,
    platform: NetworkId,
    grantEndsAt: number,
    expected: string,
  ): Promise<boolean> {
    return this.write(
      () =>
        this.run(
          `UPDATE accounts SET grant_ends_at = ?
           WHERE user_id = ? AND mode = 'live' AND platform = ? AND grant_ends_at IS NULL AND credentials = ?`,
          grantEndsAt,
          userId,
          platform,
          expected,
        ) > 0,
    );
  }

  // ── OAuth connects under way ────────────────────────────────────────────────────────────────────

  async putOAuthState(record: OAuthStateRecord): Promise<void> {
    await this.write(() => {
      this.run("DELETE FROM oauth_states WHERE expires_at <= ?", record.created_at);
      this.run(
        `INSERT INTO oauth_states (state_hash, user_id, platform, secret, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
        record.state_hash,
        record.user_id,
        record.platform,
        record.secret,
        record.created_at,
        record.expires_at,
      );
    });
  }

  async takeOAuthState(stateHash: string, now: number): Promise<OAuthStateRecord | null> {
    // DELETE … RETURNING takes the row in one statement: of two callbacks with one state, one gets it.
    const row = this.get("DELETE FROM oauth_states WHERE state_hash = ? RETURNING *", stateHash);
    if (!row || (row.expires_at as number) <= now) return null;
    return toOAuthState(row);
  }

  // ── posts ───────────────────────────────────────────────────────────────────────────────────────

  async insertPost(post: PostRecord, targets: TargetRecord[], effects?: Effects): Promise<void> {
    await this.write(() => {
      this.run(
        `INSERT INTO posts (id, user_id, mode, caption, platforms, status, media, scheduled_at, published_at, created_at, captions)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        post.id,
        post.user_id,
        post.mode,
        post.caption,
        JSON.stringify(post.platforms),
        post.status,
        post.media,
        post.scheduled_at,
        post.published_at,
        post.created_at,
        captionsColumn(post.captions),
      );
      this.run(
        "INSERT INTO post_creations (user_id, post_id, created_at) VALUES (?, ?, ?)",
        post.user_id,
        post.id,
        post.created_at,
      );
      this.writeTargets(post.id, targets);
      this.writeEffects(effects);
    });
  }

  async getPost(userId: string, id: string): Promise<PostRecord | null> {
    return this.readUsersPost(userId, id);
  }

  /** The user's post by id (another user's answers like an unknown id), read as an array. */
  private readUsersPost(userId: string, id: string): PostRecord | null {
    const row = this.getArray(`SELECT ${POST_COLUMNS} FROM posts WHERE id = ? AND user_id = ?`, id, userId);
    return row ? postFromColumns(row) : null;
  }

  async listPosts(userId: string, options: ListPostsOptions): Promise<PostRecord[]> {
    const where = ["user_id = ?"];
    const params: SQLInputValue[] = [userId];
    if (options.statuses && options.statuses.length > 0) {
      where.push(`status IN (${options.statuses.map(() => "?").join(", ")})`);
      params.push(...options.statuses);
    }
    if (options.beforeId !== undefined) {
      where.push("id < ?");
      params.push(options.beforeId);
    }
    params.push(options.limit);
    // A page is up to 101 rows: read as arrays, which node:sqlite builds several times faster than
    // objects with named properties.
    return this.allArrays(
      `SELECT ${POST_COLUMNS} FROM posts WHERE ${where.join(" AND ")} ORDER BY id DESC LIMIT ?`,
      ...params,
    ).map(postFromColumns);
  }

  async countPostsCreatedSince(userId: string, since: number): Promise<number> {
    const row = this.get(
      "SELECT count(*) AS n FROM post_creations WHERE user_id = ? AND created_at >= ?",
      userId,
      since,
    );
    return (row?.n as number) ?? 0;
  }

  async getTargets(postId: string): Promise<TargetRecord[]> {
    return this.readTargets(postId);
  }

  /** A post's targets in its network order, read as arrays (publishing reads them on every attempt). */
  private readTargets(postId: string): TargetRecord[] {
    return this.allArrays(
      `SELECT ${TARGET_COLUMNS} FROM targets WHERE post_id = ? ORDER BY position`,
      postId,
    ).map(targetFromColumns);
  }

  /** A post by id alone, whoever its user (the service's own reads and writes), read as an array. */
  private readPost(postId: string): PostRecord | null {
    const row = this.getArray(`SELECT ${POST_COLUMNS} FROM posts WHERE id = ?`, postId);
    return row ? postFromColumns(row) : null;
  }

  async sumTargetMetrics(postIds: readonly string[]): Promise<Map<string, TargetMetrics>> {
    // One statement for any number of ids: they travel as a JSON array.
    const rows = this.allArrays(
      `SELECT post_id, sum(reach), sum(likes), sum(comments), sum(shares)
       FROM targets WHERE post_id IN (SELECT value FROM json_each(?)) GROUP BY post_id`,
      JSON.stringify(postIds),
    );
    return new Map(
      rows.map((row) => [
        row[0] as string,
        {
          reach: row[1] as number,
          likes: row[2] as number,
          comments: row[3] as number,
          shares: row[4] as number,
        },
      ]),
    );
  }

  async deletePost(
    userId: string,
    id: string,
    effectsFor?: (post: PostRecord) => Effects,
  ): Promise<PostRecord | null> {
    return this.write(() => {
      const post = this.readUsersPost(userId, id);
      if (!post) return null;
      this.run("DELETE FROM targets WHERE post_id = ?", id);
      this.run("DELETE FROM posts WHERE id = ?", id);
      this.writeEffects(effectsFor?.(post));
      return post;
    });
  }

  async transitionPost(
    id: string,
    from: PostStatus[],
    patch: PostPatch,
    targets?: TargetRecord[],
    effects?: Effects | ((post: PostRecord) => Effects),
  ): Promise<PostRecord | null> {
    return this.write(() => {
      const post = this.readPost(id);
      if (!post || !from.includes(post.status)) return null;
      const next: PostRecord = {
        ...post,
        ...(patch.status !== undefined && { status: patch.status }),
        ...(patch.scheduled_at !== undefined && { scheduled_at: patch.scheduled_at }),
        ...(patch.published_at !== undefined && { published_at: patch.published_at }),
        ...(patch.caption !== undefined && { caption: patch.caption }),
        ...(patch.platforms !== undefined && { platforms: [...patch.platforms] }),
        ...(patch.media !== undefined && { media: patch.media }),
      };
      const captions =
        patch.captions !== undefined ? captionsColumn(patch.captions) : captionsColumn(post.captions);
      if (captions === null) delete next.captions;
      else next.captions = JSON.parse(captions) as PostRecord["captions"];
      this.run(
        `UPDATE posts SET status = ?, scheduled_at = ?, published_at = ?, caption = ?, platforms = ?, media = ?,
           captions = ?
         WHERE id = ?`,
        next.status,
        next.scheduled_at,
        next.published_at,
        next.caption,
        JSON.stringify(next.platforms),
        next.media,
        captions,
        id,
      );
      if (targets) {
        this.run("DELETE FROM targets WHERE post_id = ?", id);
        this.writeTargets(id, targets);
      }
      this.writeEffects(typeof effects === "function" ? effects(next) : effects);
      return next;
    });
  }

  async claimDuePosts(now: number, limit: number): Promise<PostRecord[]> {
    return this.write(() =>
      // One statement for the batch; RETURNING gives no order, so the batch is sorted as it was chosen.
      this.allArrays(
        `UPDATE posts SET status = 'publishing' WHERE id IN (
           SELECT id FROM posts WHERE status = 'scheduled' AND scheduled_at <= ?
           ORDER BY scheduled_at, id LIMIT ?)
         RETURNING ${POST_COLUMNS}`,
        now,
        limit,
      )
        .map(postFromColumns)
        .sort(byDueTimeThenId),
    );
  }

  async nextDueAt(): Promise<number | null> {
    const row = this.get("SELECT min(scheduled_at) AS due FROM posts WHERE status = 'scheduled'");
    return (row?.due as number | null) ?? null;
  }

  async releaseInterruptedPublishing(): Promise<number> {
    // A post published "now" that was cut off has no scheduled_at; it becomes due at its creation time,
    // so the scheduler publishes it as soon as it starts instead of leaving it stuck.
    return this.write(() =>
      this.run(
        "UPDATE posts SET status = 'scheduled', scheduled_at = coalesce(scheduled_at, created_at) WHERE status = 'publishing'",
      ),
    );
  }

  // ── publishing targets ──────────────────────────────────────────────────────────────────────────

  /**
   * Starts an attempt on a target that is due, answering it as updated; null when it was not due.
   * Call inside a transaction.
   */
  private startAttempt(postId: string, platform: NetworkId, now: number): TargetRecord | null {
    const row = this.getArray(
      `UPDATE targets SET ${START_ATTEMPT} WHERE post_id = ? AND platform = ? AND ${ATTEMPT_IS_DUE}
       RETURNING ${TARGET_COLUMNS}`,
      now,
      postId,
      platform,
      now,
    );
    return row ? targetFromColumns(row) : null;
  }

  async beginTargetAttempts(
    postId: string,
    platforms: readonly NetworkId[],
    now: number,
  ): Promise<TargetRecord[]> {
    return this.write(() => {
      const started: TargetRecord[] = [];
      for (const platform of platforms) {
        const target = this.startAttempt(postId, platform, now);
        if (target) started.push(target);
      }
      return started;
    });
  }

  async beginAllAttempts(
    postId: string,
    now: number,
  ): Promise<{ targets: TargetRecord[]; started: TargetRecord[] }> {
    return this.write(() => {
      // One statement starts every due target; the post's targets are then read in its network order.
      const begun = new Set(
        this.allArrays(
          `UPDATE targets SET ${START_ATTEMPT} WHERE post_id = ? AND ${ATTEMPT_IS_DUE} RETURNING platform`,
          now,
          postId,
          now,
        ).map((row) => row[0] as NetworkId),
      );
      const targets = this.readTargets(postId);
      return { targets, started: targets.filter((t) => begun.has(t.platform)) };
    });
  }

  async claimDueTargets(now: number, limit: number): Promise<ClaimedTarget[]> {
    return this.write(() => {
      const due = this.all(
        `SELECT t.post_id, t.platform FROM targets t JOIN posts p ON p.id = t.post_id
         WHERE t.next_attempt_at IS NOT NULL AND t.next_attempt_at <= ? AND t.status = 'pending'
           AND t.in_flight = 0 AND p.status IN ('publishing', 'published')
         ORDER BY t.next_attempt_at LIMIT ?`,
        now,
        Math.max(0, limit),
      );
      const claimed: ClaimedTarget[] = [];
      for (const row of due) {
        const postId = row.post_id as string;
        const platform = row.platform as NetworkId;
        const target = this.startAttempt(postId, platform, now);
        if (!target) continue;
        claimed.push({ post: this.readPost(postId)!, target });
      }
      return claimed;
    });
  }

  async nextTargetAttemptAt(): Promise<number | null> {
    const row = this.get(
      `SELECT min(next_attempt_at) AS at FROM targets
       WHERE next_attempt_at IS NOT NULL AND status = 'pending' AND in_flight = 0`,
    );
    return (row?.at as number | null) ?? null;
  }

  async finishTargets(
    postId: string,
    targets: readonly TargetRecord[],
    now: number,
    effects?: Effects | ((post: PostRecord, written: ReadonlySet<NetworkId>) => Effects),
  ): Promise<PostRecord | null> {
    return this.write(() => {
      const post = this.readPost(postId);
      if (!post) return null;
      // One write per network, the last given winning; never over a target already settled (final).
      const written = new Set<NetworkId>();
      for (const t of new Map(targets.map((t) => [t.platform, t] as const)).values()) {
        const changes = this.run(
          `UPDATE targets SET status = ?, text = ?, permalink = ?, error = ?, published_at = ?, reach = ?,
             likes = ?, comments = ?, shares = ?, attempts = ?, attempted_at = ?, in_flight = ?,
             outcome_unknown = ?, next_attempt_at = ?, remote_id = ?, metrics_due_at = ?, metrics_reads = ?,
             publish_step = ?
           WHERE post_id = ? AND platform = ? AND status = 'pending'`,
          ...targetValues(t),
          postId,
          t.platform,
        );
        if (changes > 0) written.add(t.platform);
      }
      const stored = this.readTargets(postId);
      const settled = { ...post, ...settledPost(post, stored, now) };
      if (
        settled.status !== post.status ||
        settled.scheduled_at !== post.scheduled_at ||
        settled.published_at !== post.published_at
      ) {
        this.run(
          "UPDATE posts SET status = ?, scheduled_at = ?, published_at = ? WHERE id = ?",
          settled.status,
          settled.scheduled_at,
          settled.published_at,
          postId,
        );
      }
      this.writeEffects(typeof effects === "function" ? effects(settled, written) : effects);
      return settled;
    });
  }

  async saveTargetStep(
    postId: string,
    platform: NetworkId,
    attempts: number,
    step: string | null,
  ): Promise<boolean> {
    return this.write(
      () =>
        this.run(
          `UPDATE targets SET publish_step = ?
           WHERE post_id = ? AND platform = ? AND in_flight = 1 AND attempts = ?`,
          step,
          postId,
          platform,
          attempts,
        ) > 0,
    );
  }

  async oldestAttemptInFlight(): Promise<number | null> {
    const row = this.get("SELECT min(attempted_at) AS at FROM targets WHERE in_flight = 1");
    return (row?.at as number | null | undefined) ?? null;
  }

  async releaseInterruptedTargets(startedBefore: number, now: number): Promise<number> {
    return this.write(() =>
      this.run(
        `UPDATE targets SET in_flight = 0, outcome_unknown = 1, next_attempt_at = ?
         WHERE in_flight = 1 AND attempted_at < ?`,
        now,
        startedBefore,
      ),
    );
  }

  async recentAttemptTimes(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    since: number,
  ): Promise<number[]> {
    return this.all(
      `SELECT t.attempted_at AS at FROM targets t JOIN posts p ON p.id = t.post_id
       WHERE t.platform = ? AND t.attempted_at >= ? AND p.user_id = ? AND p.mode = ?
       ORDER BY t.attempted_at`,
      platform,
      since,
      userId,
      mode,
    ).map((row) => row.at as number);
  }

  async claimDueMetricReads(now: number, leaseUntil: number, limit: number): Promise<ClaimedTarget[]> {
    return this.write(() => {
      const due = this.all(
        `SELECT t.*, p.id AS p_id FROM targets t JOIN posts p ON p.id = t.post_id
         WHERE t.metrics_due_at IS NOT NULL AND t.metrics_due_at <= ? AND t.status = 'published'
         ORDER BY t.metrics_due_at LIMIT ?`,
        now,
        Math.max(0, limit),
      );
      return due.map((row) => {
        const target = toTarget(row);
        this.run(
          "UPDATE targets SET metrics_due_at = ? WHERE post_id = ? AND platform = ?",
          leaseUntil,
          target.post_id,
          target.platform,
        );
        const post = this.readPost(target.post_id)!;
        return { post, target: { ...target, metrics_due_at: leaseUntil } };
      });
    });
  }

  async nextMetricsReadAt(): Promise<number | null> {
    const row = this.get(
      "SELECT min(metrics_due_at) AS at FROM targets WHERE metrics_due_at IS NOT NULL AND status = 'published'",
    );
    return (row?.at as number | null) ?? null;
  }

  async scheduleMetricsRead(
    postId: string,
    platform: NetworkId,
    dueAt: number | null,
    reads: number,
  ): Promise<void> {
    await this.write(() =>
      this.run(
        "UPDATE targets SET metrics_due_at = ?, metrics_reads = ? WHERE post_id = ? AND platform = ?",
        dueAt,
        reads,
        postId,
        platform,
      ),
    );
  }

  async reportMetrics(
    postId: string,
    platform: NetworkId,
    metrics: TargetMetrics,
    effectsFor?: (target: TargetRecord) => Effects,
  ): Promise<TargetRecord | null> {
    return this.write(() => {
      const row = this.get(
        `UPDATE targets SET reach = max(reach, ?), likes = max(likes, ?), comments = max(comments, ?),
                            shares = max(shares, ?)
         WHERE post_id = ? AND platform = ?
         RETURNING *`,
        metrics.reach,
        metrics.likes,
        metrics.comments,
        metrics.shares,
        postId,
        platform,
      );
      if (!row) return null;
      const target = toTarget(row);
      this.writeEffects(effectsFor?.(target));
      return target;
    });
  }

  async listPublishedTargets(userId: string): Promise<TargetRecord[]> {
    return this.all(
      `SELECT t.* FROM targets t JOIN posts p ON p.id = t.post_id
       WHERE p.user_id = ? AND p.status = 'published' AND t.status = 'published'
       ORDER BY p.id, t.position`,
      userId,
    ).map(toTarget);
  }

  async countPublishedPosts(userId: string): Promise<number> {
    const row = this.get(
      "SELECT count(*) AS n FROM posts WHERE user_id = ? AND status = 'published'",
      userId,
    );
    return (row?.n as number) ?? 0;
  }

  async sumPublishedMetricsByPlatform(userId: string): Promise<PlatformTotals[]> {
    // Summed by SQLite: one row per network, however many posts the user has.
    return this.all(
      `SELECT t.platform, count(*) AS posts, sum(t.reach) AS reach, sum(t.likes) AS likes,
              sum(t.comments) AS comments, sum(t.shares) AS shares
       FROM targets t JOIN posts p ON p.id = t.post_id
       WHERE p.user_id = ? AND p.status = 'published' AND t.status = 'published'
       GROUP BY t.platform`,
      userId,
    ).map((row) => ({
      platform: row.platform as NetworkId,
      posts: row.posts as number,
      reach: row.reach as number,
      likes: row.likes as number,
      comments: row.comments as number,
      shares: row.shares as number,
    }));
  }

  // ── webhooks and the outbox ─────────────────────────────────────────────────────────────────────

  async createWebhook(webhook: WebhookRecord, effects?: Effects): Promise<void> {
    await this.write(() => {
      this.run(
        "INSERT INTO webhooks (id, user_id, url, events, secret, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        webhook.id,
        webhook.user_id,
        webhook.url,
        JSON.stringify(webhook.events),
        webhook.secret,
        webhook.status,
        webhook.created_at,
      );
      this.writeEffects(effects);
    });
  }

  async listWebhooks(userId: string): Promise<WebhookRecord[]> {
    return this.all("SELECT * FROM webhooks WHERE user_id = ? ORDER BY id", userId).map(toWebhook);
  }

  async getWebhook(userId: string, id: string): Promise<WebhookRecord | null> {
    const row = this.get("SELECT * FROM webhooks WHERE id = ? AND user_id = ?", id, userId);
    return row ? toWebhook(row) : null;
  }

  async deleteWebhook(userId: string, id: string, effects?: Effects): Promise<boolean> {
    return this.write(() => {
      const removed = this.run("DELETE FROM webhooks WHERE id = ? AND user_id = ?", id, userId) > 0;
      // Deliveries still owed to a removed endpoint can never be made; their history goes with it.
      if (removed) {
        this.run("DELETE FROM delivery_attempts WHERE webhook_id = ?", id);
        this.run("DELETE FROM deliveries WHERE webhook_id = ?", id);
        this.writeEffects(effects);
      }
      return removed;
    });
  }

  async setWebhookStatus(id: string, status: WebhookStatus): Promise<void> {
    await this.write(() => {
      this.run("UPDATE webhooks SET status = ? WHERE id = ?", status, id);
      // Nothing more is sent to a disabled endpoint: what it was still owed ends here.
      if (status === "disabled") this.endOwedTo(id);
    });
  }

  private endOwedTo(webhookId: string): void {
    this.run(
      "UPDATE deliveries SET state = 'failed', next_attempt_at = NULL WHERE webhook_id = ? AND state = 'pending'",
      webhookId,
    );
  }

  async listWebhookSecrets(): Promise<Pick<WebhookRecord, "id" | "user_id" | "secret">[]> {
    return this.all("SELECT id, user_id, secret FROM webhooks ORDER BY id") as Pick<
      WebhookRecord,
      "id" | "user_id" | "secret"
    >[];
  }

  async setWebhookSecret(id: string, secret: string, expected: string): Promise<boolean> {
    return this.write(() => {
      // The value replaced may be a secret in the clear: its bytes are overwritten, not left in the
      // page's free space for a copy of the file to show.
      this.db.exec("PRAGMA secure_delete = ON");
      try {
        return (
          this.run("UPDATE webhooks SET secret = ? WHERE id = ? AND secret = ?", secret, id, expected) > 0
        );
      } finally {
        this.db.exec("PRAGMA secure_delete = OFF");
      }
    });
  }

  async updateWebhook(userId: string, id: string, patch: WebhookPatch): Promise<WebhookRecord | null> {
    return this.write(() => {
      const row = this.get("SELECT * FROM webhooks WHERE id = ? AND user_id = ?", id, userId);
      if (!row) return null;
      const next: WebhookRecord = { ...toWebhook(row), ...definedFields(patch) };
      this.run(
        "UPDATE webhooks SET url = ?, events = ?, status = ? WHERE id = ?",
        next.url,
        JSON.stringify(next.events),
        next.status,
        id,
      );
      // As setWebhookStatus: nothing more is sent to a disabled endpoint.
      if (next.status === "disabled") this.endOwedTo(id);
      return next;
    });
  }

  async appendEvents(events: NewEvent[], effects?: Effects): Promise<void> {
    await this.write(() => {
      this.writeEvents(events);
      this.writeEffects(effects);
    });
  }

  async claimDueDeliveries(
    now: number,
    leaseUntil: number,
    limit: number,
    options: ClaimOptions = {},
  ): Promise<DeliveryJob[]> {
    return this.write(() => {
      const claim = new DeliveryClaim(limit, options);
      const chosen: Row[] = [];
      const undeliverable: string[] = [];
      // Due deliveries in order, through the deliveries_due index, read only until the batch is full: a
      // claim costs what it takes (and skips), not a pass over everything due — with thousands owed,
      // a pass per claim made delivery quadratic. Per endpoint, only as many as it has room for.
      for (const row of this.stmt(
        `SELECT d.*, w.status AS webhook_status,
                EXISTS (SELECT 1 FROM events e WHERE e.id = d.event_id) AS has_event
         FROM deliveries d LEFT JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.state = 'pending' AND d.next_attempt_at <= ?
         ORDER BY d.next_attempt_at, d.rowid`,
      ).iterate(now) as Iterable<Row>) {
        if (claim.full) break;
        // A delivery that can never be made ends here, so it neither fills the batch nor stays due.
        if (row.webhook_status !== "enabled" || !row.has_event) {
          undeliverable.push(row.id as string);
          continue;
        }
        if (claim.take(row.webhook_id as string)) chosen.push(row);
      }
      for (const id of undeliverable) {
        this.run("UPDATE deliveries SET state = 'failed', next_attempt_at = NULL WHERE id = ?", id);
      }
      const jobs: DeliveryJob[] = [];
      for (const row of chosen) {
        const delivery = { ...toDelivery(row), next_attempt_at: leaseUntil };
        const event = this.get("SELECT * FROM events WHERE id = ?", delivery.event_id)!;
        const webhook = this.get("SELECT * FROM webhooks WHERE id = ?", delivery.webhook_id)!;
        this.run("UPDATE deliveries SET next_attempt_at = ? WHERE id = ?", leaseUntil, delivery.id);
        jobs.push({ delivery, event: toEvent(event), webhook: toWebhook(webhook) });
      }
      return jobs;
    });
  }

  async recordAttempt(
    attempt: Omit<AttemptRecord, "next_attempt_at">,
    next: { state: DeliveryState; next_attempt_at: number | null },
  ): Promise<void> {
    await this.write(() => {
      this.run(
        `INSERT INTO delivery_attempts (id, delivery_id, attempt, webhook_id, event_id, at, response_status,
                                        duration_ms, error, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        attempt.id,
        attempt.delivery_id,
        attempt.attempt,
        attempt.webhook_id,
        attempt.event_id,
        attempt.at,
        attempt.response_status,
        attempt.duration_ms,
        attempt.error,
        next.next_attempt_at,
      );
      this.run(
        "UPDATE deliveries SET state = ?, next_attempt_at = ?, attempts = max(attempts, ?) WHERE id = ?",
        next.state,
        next.next_attempt_at,
        attempt.attempt,
        attempt.delivery_id,
      );
    });
  }

  async nextDeliveryAt(options: { excludeWebhookIds?: readonly string[] } = {}): Promise<number | null> {
    const excluded = options.excludeWebhookIds ?? [];
    const row =
      excluded.length === 0
        ? this.get("SELECT min(next_attempt_at) AS due FROM deliveries WHERE state = 'pending'")
        : this.get(
            `SELECT min(next_attempt_at) AS due FROM deliveries
             WHERE state = 'pending' AND webhook_id NOT IN (SELECT value FROM json_each(?))`,
            JSON.stringify(excluded),
          );
    return (row?.due as number | null) ?? null;
  }

  async listAttempts(webhookId: string, options: ListAttemptsOptions): Promise<AttemptLogEntry[]> {
    const before = options.beforeId === undefined ? "" : "AND a.id < ?";
    const params: SQLInputValue[] = [webhookId];
    if (options.beforeId !== undefined) params.push(options.beforeId);
    params.push(options.limit);
    return this.all(
      `SELECT a.*, e.type AS event_type FROM delivery_attempts a JOIN events e ON e.id = a.event_id
       WHERE a.webhook_id = ? ${before} ORDER BY a.id DESC LIMIT ?`,
      ...params,
    ).map(toAttemptLogEntry);
  }

  async resendEvent(
    webhookId: string,
    eventId: string,
    now: number,
    effectsFor?: (delivery: DeliveryRecord) => Effects,
  ): Promise<DeliveryRecord | null> {
    return this.write(() => {
      const found = this.get(
        `SELECT 1 FROM webhooks w JOIN events e ON e.user_id = w.user_id WHERE w.id = ? AND e.id = ?`,
        webhookId,
        eventId,
      );
      if (!found) return null;
      const delivery: DeliveryRecord = {
        id: newDeliveryId(),
        event_id: eventId,
        webhook_id: webhookId,
        state: "pending",
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
      };
      this.insertDelivery(delivery);
      this.writeEffects(effectsFor?.(delivery));
      return delivery;
    });
  }

  async listEvents(userId: string): Promise<NewEvent[]> {
    return this.all("SELECT * FROM events WHERE user_id = ? ORDER BY rowid", userId).map(toEvent);
  }

  async pruneDeliveryHistory(before: number, limit: number): Promise<number> {
    return this.write(() => {
      // Through events_by_created: only events old enough are visited.
      const ids = this.all(
        `SELECT id FROM events e
         WHERE created < ? AND NOT EXISTS (
           SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
         ORDER BY created LIMIT ?`,
        Math.ceil(before / 1000),
        limit,
      ).map((row) => row.id as string);
      if (ids.length === 0) return 0;
      const list = JSON.stringify(ids);
      this.run(
        `DELETE FROM delivery_attempts WHERE delivery_id IN (
           SELECT id FROM deliveries WHERE event_id IN (SELECT value FROM json_each(?)))`,
        list,
      );
      this.run("DELETE FROM deliveries WHERE event_id IN (SELECT value FROM json_each(?))", list);
      this.run("DELETE FROM events WHERE id IN (SELECT value FROM json_each(?))", list);
      return ids.length;
    });
  }

  // ── daily analytics ─────────────────────────────────────────────────────────────────────────────

  async lastAnalyticsDay(userId: string): Promise<string | null> {
    const row = this.get("SELECT last_date FROM analytics_days WHERE user_id = ?", userId);
    return row ? (row.last_date as string) : null;
  }

  async settleAnalyticsDay(userId: string, date: string, events: NewEvent[]): Promise<boolean> {
    return this.write(() => {
      const settled =
        this.run(
          `INSERT INTO analytics_days (user_id, last_date) VALUES (?, ?)
           ON CONFLICT (user_id) DO UPDATE SET last_date = excluded.last_date
           WHERE excluded.last_date > analytics_days.last_date`,
          userId,
          date,
        ) > 0;
      if (settled) this.writeEvents(events);
      return settled;
    });
  }

  // ── idempotency keys ────────────────────────────────────────────────────────────────────────────

  async beginIdempotentRequest(record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    return this.write(() => {
      const row = this.get(
        "SELECT * FROM idempotency_keys WHERE user_id = ? AND key = ? AND expires_at > ?",
        record.user_id,
        record.key,
        record.created_at,
      );
      if (row) return toIdempotency(row);
      // Expired records are dead weight: the index on expires_at makes clearing them cheap.
      this.run("DELETE FROM idempotency_keys WHERE expires_at <= ?", record.created_at);
      this.run(
        `INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        record.user_id,
        record.key,
        record.fingerprint,
        record.status,
        record.body,
        record.created_at,
        record.expires_at,
      );
      return null;
    });
  }

  async findIdempotentRequest(userId: string, key: string, now: number): Promise<IdempotencyRecord | null> {
    const row = this.get(
      "SELECT * FROM idempotency_keys WHERE user_id = ? AND key = ? AND expires_at > ?",
      userId,
      key,
      now,
    );
    return row ? toIdempotency(row) : null;
  }

  async completeIdempotentRequest(
    userId: string,
    key: string,
    response: { status: number; body: string; expires_at: number },
  ): Promise<void> {
    await this.write(() =>
      this.run(
        "UPDATE idempotency_keys SET status = ?, body = ?, expires_at = ? WHERE user_id = ? AND key = ?",
        response.status,
        response.body,
        response.expires_at,
        userId,
        key,
      ),
    );
  }

  async releaseIdempotentRequest(userId: string, key: string): Promise<void> {
    await this.write(() =>
      this.run("DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND status IS NULL", userId, key),
    );
  }

  async releaseInterruptedIdempotentRequests(): Promise<number> {
    return this.write(() => this.run("DELETE FROM idempotency_keys WHERE status IS NULL"));
  }

  // ── media ───────────────────────────────────────────────────────────────────────────────────────

  async insertMedia(media: MediaRecord, effects?: Effects): Promise<void> {
    await this.write(() => {
      this.run(
        "INSERT INTO media (id, user_id, url, type, size, status, path, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        media.id,
        media.user_id,
        media.url,
        media.type,
        media.size,
        media.status,
        media.path,
        media.created_at,
      );
      this.writeEffects(effects);
    });
  }

  async getMedia(userId: string, id: string): Promise<MediaRecord | null> {
    const row = this.get("SELECT * FROM media WHERE id = ? AND user_id = ?", id, userId);
    return row ? toMedia(row) : null;
  }

  // ── beyond the Store interface: operations and tests ────────────────────────────────────────────

  /** Every attempt made for a delivery, oldest first. */
  async listDeliveryAttempts(deliveryId: string): Promise<AttemptRecord[]> {
    return this.all(
      "SELECT * FROM delivery_attempts WHERE delivery_id = ? ORDER BY attempt, at",
      deliveryId,
    ).map(toAttempt);
  }

  /** The deliveries of one event, oldest first. */
  async listDeliveries(eventId: string): Promise<DeliveryRecord[]> {
    return this.all("SELECT * FROM deliveries WHERE event_id = ? ORDER BY created_at, id", eventId).map(
      toDelivery,
    );
  }
}

/** The fields of a patch that are set: `{url: undefined}` changes nothing. */
function definedFields<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The fields of a patch that are set: undefined ones leave the record as it is. */
function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function newDeliveryId(): string {
  return `dlv_${randomUUID().replaceAll("-", "")}`;
}

/** Opens (creating when needed) the database at `path` and brings its schema up to date. */
export function openSqliteStore(path: string, options: Omit<SqliteStoreOptions, "path"> = {}): SqliteStore {
  return new SqliteStore({ ...options, path });
}

/**
 * A target's columns after its key (status … publish_step), in the order both the insert of a post's
 * targets and the update of finished ones list them.
 */
function targetValues(t: TargetRecord): SQLInputValue[] {
  return [
    t.status,
    t.text,
    t.permalink,
    t.error,
    t.published_at,
    t.reach,
    t.likes,
    t.comments,
    t.shares,
    t.attempts,
    t.attempted_at,
    t.in_flight ? 1 : 0,
    t.outcome_unknown ? 1 : 0,
    t.next_attempt_at,
    t.remote_id,
    t.metrics_due_at,
    t.metrics_reads,
    t.publish_step,
  ];
}

/** What starting an attempt sets on a target (its parameter: the time it starts). */
const START_ATTEMPT = "in_flight = 1, attempts = attempts + 1, attempted_at = ?, next_attempt_at = NULL";
/** A target an attempt may start on (its parameter: now): pending, not in flight, and due. */
const ATTEMPT_IS_DUE =
  "status = 'pending' AND in_flight = 0 AND (next_attempt_at IS NULL OR next_attempt_at <= ?)";

/** Due posts in the order the scheduler claims them: earliest due first, then by id. */
function byDueTimeThenId(a: PostRecord, b: PostRecord): number {
  return a.scheduled_at! - b.scheduled_at! || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
