import { randomUUID } from "node:crypto";
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
  StoreWakeups,
  TargetMetrics,
  TargetRecord,
  UserRecord,
  WebhookPatch,
  WebhookRecord,
  WebhookStatus,
} from "@socialpub/core";
import { DeliveryClaim, IdempotencyKeyTaken, settledPost } from "@socialpub/core";
import postgres, { type Sql, type TransactionSql } from "postgres";
import {
  captionsColumn,
  toAccount,
  toAttempt,
  toAttemptLogEntry,
  toDelivery,
  toEvent,
  toIdempotency,
  toKey,
  toMedia,
  toOAuthState,
  toPost,
  toTarget,
  toUser,
  toWebhook,
} from "../rows.ts";
import { DeadlineExceeded, withDeadline } from "./deadline.ts";
import { isRetryable, unavailableIfConnectionLost } from "./failures.ts";
import { type HeldLease, LeaseKeeper } from "./lease-keeper.ts";
import { migratePostgres } from "./migrate.ts";
import { together } from "./pipeline.ts";
import { targetColumns, writeTargetOutcomes } from "./target-outcomes.ts";

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database (libpq's URL form; ?sslmode=require and the like work). */
  url: string;
  /** Connections this instance keeps at most. Default 10. */
  poolSize?: number;
  /** Longest a statement may run before the database cancels it; default 5 s. */
  statementTimeoutMs?: number;
  /** How long opening a connection may take; default 5 s. */
  connectTimeoutMs?: number;
  /**
   * Longest one call to the database may take from this side, waiting for a connection included;
   * default the statement timeout plus the connect timeout plus 2 s. A call past it answers 503 and
   * the instance's connections are replaced (deadline.ts).
   */
  queryDeadlineMs?: number;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  /**
   * How long a claim of a post lasts: an instance that dies while publishing leaves the post to another
   * once this runs out. Default 60 s; longer than any publish should take.
   */
  publishLeaseMs?: number;
}

/** The channel instances wake each other on; payloads are "due:<ms>", "attempt:<ms>" and "owed". */
const WAKE_CHANNEL = "socialpub_wake";
/** The first half of the two-number advisory lock key of per-user locks ("sp" in ASCII). */
const USER_LOCK_SPACE = 0x7370;
/** How long a window's count is kept after the window ends (they are removed in passing). */
const RATE_WINDOW_KEEP_MS = 10 * 60_000;

type Row = Record<string, unknown>;
/** The connections an instance works with; replaced together when a call finds them wedged. */
interface Pools {
  sql: Sql;
  locks: Sql;
  /** The lease renewals' own connection: a pool busy with publishing must not make them wait. */
  leases: Sql;
}
type Tx = TransactionSql;

/** A transaction that lost a deadlock or serialization race is run again this many times. */
const TRANSACTION_RETRIES = 5;

/**
 * The Store on PostgreSQL, for several server instances sharing one database.
 *
 * Every method that changes more than one row is one transaction (READ COMMITTED); rows that decide a
 * step are locked as they are read (FOR UPDATE), so two instances cannot both act on the same record,
 * and claims of work (due posts, due deliveries) skip rows another instance holds (SKIP LOCKED), so
 * instances claiming at once share the work instead of queueing behind each other. A transaction that
 * loses a deadlock is run again. A lost connection or a database that is restarting becomes a
 * StoreUnavailableError, which the service answers with 503.
 */
export class PostgresStore implements Store {
  readonly shared = true;
  readonly url: string;
  /** Where the store points, without a password: for logs and the start line. */
  readonly description: string;
  private pools: Pools;
  /** Opens new pools, to replace ones a call found wedged. */
  private readonly openPools: () => Pools;
  /** LISTEN's own connection (the driver keeps it apart and listens again after a reconnect). */
  private readonly listener: Sql;
  private readonly publishLeaseMs: number;
  private readonly deadlineMs: number;
  /** Renews the leases of the posts this instance is publishing (lease-keeper.ts). */
  private readonly leases: LeaseKeeper;

  private constructor(
    openPools: () => Pools,
    listener: Sql,
    url: string,
    publishLeaseMs: number,
    deadlineMs: number,
  ) {
    this.openPools = openPools;
    this.pools = openPools();
    this.listener = listener;
    this.url = url;
    this.description = describeUrl(url);
    this.publishLeaseMs = publishLeaseMs;
    this.deadlineMs = deadlineMs;
    this.leases = new LeaseKeeper(publishLeaseMs, (held, until, now) => this.renewLeases(held, until, now));
  }

  private get sql(): Sql {
    return this.pools.sql;
  }

  /**
   * Connections whose transactions hold per-user locks (exclusivelyForUser), apart from the pool the locked work
   * itself uses: were they one pool, holders of every connection would wait for one forever.
   */
  private get locks(): Sql {
    return this.pools.locks;
  }

  /** Connects, and brings the schema up to date (or refuses a schema newer than this server). */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const settings = {
      connect_timeout: Math.ceil((options.connectTimeoutMs ?? 5000) / 1000),
      idle_timeout: 60,
      // How long a connection waits before trying the database again after failing to reach it. The
      // driver's own wait grows to 20 s, and a request that finds its connection waiting waits with
      // it: capped at 1 s, a request while the database is down fails fast (503) and an instance is
      // back about a second after the database is.
      backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1) * (0.5 + Math.random() / 2),
      onnotice: () => {},
      // bigint columns hold Unix milliseconds and counts: all far below 2^53, so plain numbers.
      types: {
        bigint: {
          to: 20,
          from: [20],
          serialize: (value: number) => String(value),
          parse: (value: string) => Number(value),
        },
      },
      connection: {
        application_name: options.applicationName ?? "socialpub-server",
        statement_timeout: options.statementTimeoutMs ?? 5000,
        // A transaction left open by an instance that stalled must not hold its locks for long.
        idle_in_transaction_session_timeout: Math.max(10_000, (options.statementTimeoutMs ?? 5000) * 2),
      },
    } satisfies postgres.Options<Record<string, postgres.PostgresType>>;
    const poolSize = options.poolSize ?? 10;
    const openPools = (): Pools => ({
      sql: postgres(options.url, { ...settings, max: poolSize }),
      // The lock transactions stay open, idle, for as long as the locked work takes; one the driver lost
      // track of (its connection cut mid-transaction) is ended by the database after two minutes.
      locks: postgres(options.url, {
        ...settings,
        connection: { ...settings.connection, idle_in_transaction_session_timeout: 120_000 },
        max: Math.max(2, Math.ceil(poolSize / 2)),
      }),
      leases: postgres(options.url, { ...settings, max: 1 }),
    });
    const listener = postgres(options.url, { ...settings, max: 1 });
    const deadlineMs =
      options.queryDeadlineMs ??
      (options.statementTimeoutMs ?? 5000) + (options.connectTimeoutMs ?? 5000) + 2000;
    const store = new PostgresStore(
      openPools,
      listener,
      options.url,
      options.publishLeaseMs ?? 60_000,
      deadlineMs,
    );
    try {
      // Unbounded: a migration of a large database may rightly take minutes, and the instances that
      // start meanwhile wait for its advisory lock.
      await store.guard(() => migratePostgres(store.sql), Number.POSITIVE_INFINITY);
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  // ── plumbing ────────────────────────────────────────────────────────────────────────────────────

  /**
   * Runs one call to the database, bounded by the query deadline, turning a lost connection into
   * StoreUnavailableError. A call past the deadline means the driver lost track of a connection: the
   * pools are replaced, so the calls after it reach the database on fresh connections.
   */
  private async guard<T>(work: () => Promise<T>, deadlineMs = this.deadlineMs): Promise<T> {
    try {
      return await withDeadline(work(), deadlineMs);
    } catch (error) {
      if (error instanceof DeadlineExceeded) this.replacePools();
      throw unavailableIfConnectionLost(error, this.description);
    }
  }

  /** Swaps in new pools and destroys the old ones, failing whatever still waits on them. */
  private replacePools(): void {
    if (this.closing) return;
    const old = this.pools;
    this.pools = this.openPools();
    void Promise.all([
      old.sql.end({ timeout: 0 }),
      old.locks.end({ timeout: 0 }),
      old.leases.end({ timeout: 0 }),
    ]).catch(() => {});
  }

  private async rows(query: () => Promise<readonly Row[]>): Promise<Row[]> {
    return this.guard(async () => [...(await query())]);
  }

  private async one(query: () => Promise<readonly Row[]>): Promise<Row | undefined> {
    return (await this.rows(query))[0];
  }

  /** Runs `work` as one transaction, again when it lost a deadlock. */
  private async tx<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.guard(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return (await this.sql.begin((tx) => work(tx))) as T;
        } catch (error) {
          if (attempt >= TRANSACTION_RETRIES || !isRetryable(error)) throw error;
        }
      }
    });
  }

  /**
   * Writes events to the outbox, with one pending delivery per endpoint that should receive each.
   * `endpointsOf` may hold a user's enabled endpoints read earlier in the transaction, sparing the
   * round trip that reads them.
   */
  private async writeEvents(
    tx: Tx,
    events: readonly NewEvent[] | undefined,
    endpointsOf = new Map<string, WebhookRecord[]>(),
  ): Promise<void> {
    if (!events || events.length === 0) return;
    const deliveries: DeliveryRecord[] = [];
    for (const event of events) {
      let endpoints = endpointsOf.get(event.user_id);
      if (event.webhook_id === undefined && endpoints === undefined) {
        endpoints = await this.enabledEndpoints(tx, event.user_id);
        endpointsOf.set(event.user_id, endpoints);
      }
      const receivers =
        event.webhook_id !== undefined
          ? [event.webhook_id]
          : endpoints!.filter((webhook) => webhook.events.includes(event.type)).map((webhook) => webhook.id);
      const due = event.created * 1000;
      for (const webhookId of receivers) {
        deliveries.push({
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
    // One statement per table, however many events, sent together: the database runs them in order,
    // and the transaction waits for one round trip instead of three.
    await together([
      tx`INSERT INTO events ${tx(
        events.map((event) => ({
          id: event.id,
          user_id: event.user_id,
          type: event.type,
          created: event.created,
          data: JSON.stringify(event.data ?? null),
          webhook_id: event.webhook_id ?? null,
        })),
      )}`.execute(),
      ...(deliveries.length > 0 ? [this.insertDeliveries(tx, deliveries), this.wake(tx, "owed")] : []),
    ]);
  }

  /** The user's enabled webhook endpoints, in the order events are delivered to them. */
  private async enabledEndpoints(tx: Tx, userId: string): Promise<WebhookRecord[]> {
    return (
      await tx`SELECT * FROM webhooks WHERE user_id = ${userId} AND status = 'enabled'
               ORDER BY created_at, id`
    ).map(toWebhook);
  }

  /** Wakes every instance listening (this one too) once the transaction commits. */
  private async wake(tx: Tx, payload: string): Promise<void> {
    await tx`SELECT pg_notify(${WAKE_CHANNEL}, ${payload})`;
  }

  private async insertDeliveries(tx: Tx, deliveries: readonly DeliveryRecord[]): Promise<void> {
    await tx`INSERT INTO deliveries ${tx(
      deliveries.map((d) => ({
        id: d.id,
        event_id: d.event_id,
        webhook_id: d.webhook_id,
        state: d.state,
        attempts: d.attempts,
        next_attempt_at: d.next_attempt_at,
        created_at: d.created_at,
      })),
    )}`;
  }

  /** Writes a change's effects: its events (the outbox) and the answer of the keyed request making it. */
  private async writeEffects(
    tx: Tx,
    effects: Effects | undefined,
    endpointsOf?: Map<string, WebhookRecord[]>,
  ): Promise<void> {
    if (!effects) return;
    // Sent together (in this order); the claim of a key still throws when another request holds it.
    await together([
      this.writeEvents(tx, effects.events, endpointsOf),
      effects.idempotency ? this.writeIdempotencyAnswer(tx, effects.idempotency) : undefined,
    ]);
  }

  /**
   * Replaces the request's in-flight record with its answer (or inserts it, should the claim be gone).
   * A write that is also the claim takes the key only from an expired record: of two transactions
   * inserting one key, the second waits for the first to commit, then finds its row and throws, and
   * its transaction, the change included, rolls back.
   */
  private async writeIdempotencyAnswer(tx: Tx, answer: IdempotencyAnswer): Promise<void> {
    if (answer.claim) {
      const claimed = await tx`
        INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
        VALUES (${answer.user_id}, ${answer.key}, ${answer.fingerprint}, ${answer.status}, ${answer.body},
                ${answer.created_at}, ${answer.expires_at})
        ON CONFLICT (user_id, key) DO UPDATE SET
          fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
          created_at = excluded.created_at, expires_at = excluded.expires_at
        WHERE idempotency_keys.expires_at <= excluded.created_at
        RETURNING user_id`;
      if (claimed.length === 0) throw new IdempotencyKeyTaken(answer.user_id, answer.key);
      return;
    }
    await tx`
      INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
      VALUES (${answer.user_id}, ${answer.key}, ${answer.fingerprint}, ${answer.status}, ${answer.body},
              ${answer.created_at}, ${answer.expires_at})
      ON CONFLICT (user_id, key) DO UPDATE SET
        fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
        created_at = excluded.created_at, expires_at = excluded.expires_at`;
  }

  private async writeTargets(tx: Tx, postId: string, targets: readonly TargetRecord[]): Promise<void> {
    if (targets.length === 0) return;
    await tx`INSERT INTO targets ${tx(
      targets.map((t, position) => ({
        post_id: postId,
        platform: t.platform,
        position,
        ...targetColumns(t),
      })),
    )}`;
  }

  // ── lifecycle ───────────────────────────────────────────────────────────────────────────────────

  async ping(): Promise<void> {
    await this.rows(() => this.sql`SELECT 1`);
  }

  async listen(wakeups: StoreWakeups): Promise<() => Promise<void>> {
    // Many events written at once (a batch of posts published) are one wake-up for the worker.
    let owed: ReturnType<typeof setTimeout> | null = null;
    const onNotify = (payload: string) => {
      if (payload.startsWith("due:")) {
        const at = Number(payload.slice(4));
        if (Number.isFinite(at)) wakeups.postDue(at);
      } else if (payload === "grants") {
        wakeups.grantsChanged?.();
      } else if (payload.startsWith("attempt:")) {
        const at = Number(payload.slice(8));
        if (Number.isFinite(at)) wakeups.attemptStarted?.(at);
      } else if (payload.startsWith("retry:")) {
        const at = Number(payload.slice(6));
        if (Number.isFinite(at)) wakeups.retryDue?.(at);
      } else if (payload === "owed" && owed === null) {
        owed = setTimeout(() => {
          owed = null;
          wakeups.deliveriesOwed();
        }, 20);
      }
    };
    // The driver keeps a connection of its own for this and listens again after it reconnects; what
    // was written while it was away is found by the timers' next look at the store.
    const { unlisten } = await this.guard(() =>
      this.listener.listen(WAKE_CHANNEL, onNotify, () => wakeups.deliveriesOwed()),
    );
    return async () => {
      if (owed !== null) clearTimeout(owed);
      await unlisten().catch(() => {});
    };
  }

  async exclusivelyForUser<T>(userId: string, work: () => Promise<T>): Promise<T> {
    // A transaction-level advisory lock, held by a transaction on a connection of its own while `work`
    // runs (on the other pool), and released by the database should this process die holding it. A
    // transaction rather than a reserved connection and a session lock: the driver hands a reserved
    // connection that closed while reserved back to the pool as if it were open, so a database restart
    // left the lock pool dead. A lock wait is bounded by the statement timeout (503).
    let started: Promise<T> | null = null;
    let abandoned = false;
    let held!: () => void;
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    const run = this.locks.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${USER_LOCK_SPACE}, hashtext(${userId}))`;
      // Answered 503 already: the work must not start behind the caller's back.
      if (abandoned) throw new Error("the lock came after its deadline");
      held();
      started = work();
      return await started;
    });
    run.catch(() => {});
    try {
      // Only taking the lock is bounded by the deadline: the locked work bounds its own calls.
      await this.guard(() => Promise.race([holding, run.then(() => {})])).catch((error: unknown) => {
        abandoned = true;
        throw error;
      });
      return (await run) as T;
    } catch (error) {
      // The lock's connection was lost while `work` ran: the work is store transactions of its own, so
      // it finishes, and its own outcome is the answer.
      if (started) return await started;
      throw unavailableIfConnectionLost(error, this.description);
    }
  }

  private closing: Promise<void> | null = null;

  async close(): Promise<void> {
    this.leases.stop();
    this.closing ??= Promise.all([
      this.sql.end({ timeout: 5 }),
      this.locks.end({ timeout: 5 }),
      this.pools.leases.end({ timeout: 5 }),
      this.listener.end({ timeout: 5 }),
    ]).then(() => {});
    await this.closing;
  }

  // ── users and keys ──────────────────────────────────────────────────────────────────────────────

  async createUser(user: UserRecord): Promise<void> {
    await this.rows(
      () => this.sql`INSERT INTO users (id, email, name, studio, plan, created_at)
        VALUES (${user.id}, ${user.email}, ${user.name}, ${user.studio}, ${user.plan}, ${user.created_at})`,
    );
  }

  async getUser(id: string): Promise<UserRecord | null> {
    const row = await this.one(() => this.sql`SELECT * FROM users WHERE id = ${id}`);
    return row ? toUser(row) : null;
  }

  async findUserByEmail(email: string): Promise<UserRecord | null> {
    const row = await this.one(() => this.sql`SELECT * FROM users WHERE email = ${email}`);
    return row ? toUser(row) : null;
  }

  async listUsers(): Promise<UserRecord[]> {
    return (await this.rows(() => this.sql`SELECT * FROM users ORDER BY created_at, id`)).map(toUser);
  }

  async createKey(key: ApiKeyRecord): Promise<void> {
    await this.rows(
      () => this.sql`INSERT INTO api_keys (id, user_id, hash, mode, hint, created_at, revoked_at, name,
                                         last_used_at)
        VALUES (${key.id}, ${key.user_id}, ${key.hash}, ${key.mode}, ${key.hint}, ${key.created_at},
                ${key.revoked_at}, ${key.name ?? null}, ${key.last_used_at ?? null})`,
    );
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    const row = await this.one(() => this.sql`SELECT * FROM api_keys WHERE hash = ${hash}`);
    return row ? toKey(row) : null;
  }

  async listKeys(userId: string): Promise<ApiKeyRecord[]> {
    return (
      await this.rows(() => this.sql`SELECT * FROM api_keys WHERE user_id = ${userId} ORDER BY seq`)
    ).map(toKey);
  }

  async revokeKey(id: string, at: number, effects?: Effects): Promise<boolean> {
    return this.tx(async (tx) => {
      const rows = await tx`UPDATE api_keys SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL
                            RETURNING id`;
      if (rows.length === 0) return false;
      await this.writeEffects(tx, effects);
      return true;
    });
  }

  async markKeyUsed(id: string, at: number): Promise<void> {
    await this.rows(
      () => this.sql`UPDATE api_keys SET last_used_at = ${at}
                     WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${at})`,
    );
  }

  // ── usage ───────────────────────────────────────────────────────────────────────────────────────

  async authorizeCall(keyHash: string, month: string): Promise<AuthorizedCall | null> {
    // One statement, one round trip: the key and its user are read by the statement that counts the
    // call, so a key revoked through any instance is refused at once, and a refused call counts nothing.
    const row = await this.one(
      () => this.sql`WITH found AS (
          SELECT k.id AS key_id, k.user_id, k.hash, k.mode, k.hint, k.created_at AS key_created_at,
                 k.revoked_at, k.name AS key_name, k.last_used_at, u.email, u.name, u.studio, u.plan, u.created_at AS user_created_at,
                 u.posts_version
          FROM api_keys k JOIN users u ON u.id = k.user_id
          WHERE k.hash = ${keyHash} AND k.revoked_at IS NULL
        ), counted AS (
          INSERT INTO api_usage (user_id, month, calls) SELECT user_id, ${month}, 1 FROM found
          ON CONFLICT (user_id, month) DO UPDATE SET calls = api_usage.calls + 1
          RETURNING calls
        )
        SELECT found.*, counted.calls FROM found, counted`,
    );
    if (!row) return null;
    return {
      key: toKey({ ...row, id: row.key_id, created_at: row.key_created_at, name: row.key_name }),
      user: toUser({ ...row, id: row.user_id, created_at: row.user_created_at }),
      calls: row.calls as number,
      postsVersion: Number(row.posts_version),
    };
  }

  async incrementApiCalls(userId: string, month: string): Promise<number> {
    // One statement: the row lock orders concurrent increments, from any instance, so each call gets
    // its own count.
    const row = await this.one(
      () => this.sql`INSERT INTO api_usage (user_id, month, calls) VALUES (${userId}, ${month}, 1)
        ON CONFLICT (user_id, month) DO UPDATE SET calls = api_usage.calls + 1
        RETURNING calls`,
    );
    return row!.calls as number;
  }

  async countKeyRequest(keyId: string, windowStart: number): Promise<number> {
    const row = await this.one(
      () => this
        .sql`INSERT INTO rate_windows (key_id, window_start, requests) VALUES (${keyId}, ${windowStart}, 1)
        ON CONFLICT (key_id, window_start) DO UPDATE SET requests = rate_windows.requests + 1
        RETURNING requests, xmax = 0 AS opened`,
    );
    // The first request of a window clears windows long ended, so the table stays as small as the
    // number of keys in use.
    if (row!.opened) {
      await this.rows(
        () => this.sql`DELETE FROM rate_windows WHERE window_start < ${windowStart - RATE_WINDOW_KEEP_MS}`,
      );
    }
    return row!.requests as number;
  }

  async getApiCalls(userId: string, month: string): Promise<number> {
    const row = await this.one(
      () => this.sql`SELECT calls FROM api_usage WHERE user_id = ${userId} AND month = ${month}`,
    );
    return row ? (row.calls as number) : 0;
  }

  // ── accounts ────────────────────────────────────────────────────────────────────────────────────

  async listAccounts(userId: string, mode: KeyMode): Promise<AccountRecord[]> {
    return (
      await this.rows(
        () => this.sql`SELECT * FROM accounts WHERE user_id = ${userId} AND mode = ${mode} ORDER BY seq`,
      )
    ).map(toAccount);
  }

  async getAccount(userId: string, mode: KeyMode, platform: NetworkId): Promise<AccountRecord | null> {
    const row = await this.one(
      () => this.sql`SELECT * FROM accounts
                     WHERE user_id = ${userId} AND mode = ${mode} AND platform = ${platform}`,
    );
    return row ? toAccount(row) : null;
  }

  async putAccount(account: AccountRecord, effects?: Effects): Promise<void> {
    await this.tx(async (tx) => {
      await tx`
        INSERT INTO accounts (user_id, mode, platform, handle, followers, health, connected_at, credentials,
                              grant_ends_at)
        VALUES (${account.user_id}, ${account.mode}, ${account.platform}, ${account.handle},
                ${account.followers}, ${account.health}, ${account.connected_at}, ${account.credentials},
                ${account.grant_ends_at ?? null})
        ON CONFLICT (user_id, mode, platform) DO UPDATE SET
          handle = excluded.handle, followers = excluded.followers, health = excluded.health,
          connected_at = excluded.connected_at, credentials = excluded.credentials,
          grant_ends_at = excluded.grant_ends_at`;
      await this.writeEffects(tx, effects);
      // Every instance's sweep of ending grants looks again at when it next has something to do.
      if (account.grant_ends_at != null) await this.wake(tx, "grants");
    });
  }

  async updateAccount(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    patch: AccountPatch,
    effectsFor?: (before: AccountRecord, after: AccountRecord) => Effects,
  ): Promise<AccountRecord | null> {
    return this.tx(async (tx) => {
      const [row] = await tx`SELECT * FROM accounts
                             WHERE user_id = ${userId} AND mode = ${mode} AND platform = ${platform} FOR UPDATE`;
      if (!row) return null;
      const before = toAccount(row);
      const after: AccountRecord = {
        ...before,
        ...(patch.handle !== undefined && { handle: patch.handle }),
        ...(patch.followers !== undefined && { followers: patch.followers }),
        ...(patch.health !== undefined && { health: patch.health }),
      };
      await tx`UPDATE accounts SET handle = ${after.handle}, followers = ${after.followers}, health = ${after.health}
               WHERE user_id = ${userId} AND mode = ${mode} AND platform = ${platform}`;
      await this.writeEffects(tx, effectsFor?.(before, after));
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
    const rows = await this.rows(() =>
      expected === undefined
        ? this.sql`UPDATE accounts SET credentials = ${credentials}
                     WHERE user_id = ${userId} AND mode = ${mode} AND platform = ${platform} RETURNING user_id`
        : this.sql`UPDATE accounts SET credentials = ${credentials}
                     WHERE user_id = ${userId} AND mode = ${mode} AND platform = ${platform}
                       AND credentials = ${expected} RETURNING user_id`,
    );
    return rows.length > 0;
  }

  async deleteAccount(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    effects?: Effects,
  ): Promise<boolean> {
    return this.tx(async (tx) => {
      const removed = await tx`DELETE FROM accounts
                               WHERE user_id = ${userId} AND mode = ${mode} AND platform = ${platform}
                               RETURNING user_id`;
      if (removed.length === 0) return false;
      await this.writeEffects(tx, effects);
      return true;
    });
  }

  async countAccountsWithCredentials(): Promise<number> {
    const row = await this.one(
      () => this.sql`SELECT count(*) AS n FROM accounts WHERE credentials IS NOT NULL`,
    );
    return (row?.n as number) ?? 0;
  }

  async settleEndingGrants(
    now: number,
    aheadMs: number,
    limit: number,
    effectsFor?: (account: AccountRecord) => Effects,
  ): Promise<AccountRecord[]> {
    return this.tx(async (tx) => {
      // Rows another instance is settling are skipped (it changes them); the health to replace is in
      // the WHERE clause and read again under the row lock, so each change is made, and sent, once.
      const changed = (
        await tx`UPDATE accounts a
                 SET health = CASE WHEN a.grant_ends_at <= ${now} THEN 'reauth_required' ELSE 'expiring' END
                 FROM (SELECT user_id, mode, platform FROM accounts
                       WHERE mode = 'live' AND grant_ends_at IS NOT NULL
                         AND ((health <> 'reauth_required' AND grant_ends_at <= ${now})
                           OR (health = 'healthy' AND grant_ends_at <= ${now + aheadMs}))
                       ORDER BY grant_ends_at LIMIT ${limit}
                       FOR UPDATE SKIP LOCKED) due
                 WHERE a.user_id = due.user_id AND a.mode = due.mode AND a.platform = due.platform
                 RETURNING a.*`
      )
        .map(toAccount)
        .sort((x, y) => x.grant_ends_at! - y.grant_ends_at!);
      for (const account of changed) await this.writeEffects(tx, effectsFor?.(account));
      return changed;
    });
  }

  async nextGrantChangeAt(aheadMs: number): Promise<number | null> {
    const row = await this.one(
      () => this.sql`SELECT min(CASE WHEN health = 'healthy' THEN grant_ends_at - ${aheadMs}
                                     ELSE grant_ends_at END) AS at
                     FROM accounts
                     WHERE mode = 'live' AND grant_ends_at IS NOT NULL AND health <> 'reauth_required'`,
    );
    return row?.at == null ? null : Number(row.at);
  }

  async listAccountsWithoutGrantEnd(
    platforms: readonly NetworkId[],
    after: { user_id: string; platform: NetworkId } | null,
    limit: number,
  ): Promise<AccountRecord[]> {
    if (platforms.length === 0) return [];
    const userId = after?.user_id ?? "";
    const platform = after?.platform ?? "";
    return (
      await this.rows(
        () => this.sql`SELECT * FROM accounts
                       WHERE mode = 'live' AND credentials IS NOT NULL AND grant_ends_at IS NULL
                         AND platform IN ${this.sql(platforms as NetworkId[])}
                         AND (user_id > ${userId} OR (user_id = ${userId} AND platform > ${platform}))
                       ORDER BY user_id, platform LIMIT ${limit}`,
      )
    ).map(toAccount);
  }

  async fillGrantEnd(
    userId: string,
    platform: NetworkId,
    grantEndsAt: number,
    expected: string,
  ): Promise<boolean> {
    return this.tx(async (tx) => {
      const filled = await tx`UPDATE accounts SET grant_ends_at = ${grantEndsAt}
                              WHERE user_id = ${userId} AND mode = 'live' AND platform = ${platform}
                                AND grant_ends_at IS NULL AND credentials = ${expected}
                              RETURNING user_id`;
      // Every instance's sweep of ending grants looks again at when it next has something to do.
      if (filled.length > 0) await this.wake(tx, "grants");
      return filled.length > 0;
    });
  }

  // ── OAuth connects under way ────────────────────────────────────────────────────────────────────

  async putOAuthState(record: OAuthStateRecord): Promise<void> {
    await this.tx(async (tx) => {
      await tx`DELETE FROM oauth_states WHERE expires_at <= ${record.created_at}`;
      await tx`INSERT INTO oauth_states (state_hash, user_id, platform, secret, created_at, expires_at)
               VALUES (${record.state_hash}, ${record.user_id}, ${record.platform}, ${record.secret},
                       ${record.created_at}, ${record.expires_at})`;
    });
  }

  async takeOAuthState(stateHash: string, now: number): Promise<OAuthStateRecord | null> {
    // DELETE … RETURNING takes the row in one statement: of two callbacks with one state, one gets it.
    const row = await this.one(
      () => this.sql`DELETE FROM oauth_states WHERE state_hash = ${stateHash} RETURNING *`,
    );
    if (!row || Number(row.expires_at) <= now) return null;
    return toOAuthState(row);
  }

  // ── posts ───────────────────────────────────────────────────────────────────────────────────────

  async insertPost(post: PostRecord, targets: TargetRecord[], effects?: Effects): Promise<void> {
    const wakeAt =
      post.status === "scheduled" && post.scheduled_at !== null
        ? post.scheduled_at
        : // Published now: every instance learns when its lease runs out, so one takes it over should
          // this one die (or lose the database) before it is done.
          post.status === "publishing"
          ? post.created_at + this.publishLeaseMs
          : null;
    await this.tx(async (tx) => {
      // Nothing here waits on another's answer: one round trip, with the user's webhook endpoints read
      // for the events, which are written in the second.
      const [, , , , endpoints] = await together([
        tx`
          INSERT INTO posts (id, user_id, mode, caption, platforms, status, media, scheduled_at,
                             published_at, created_at, lease_until, captions)
          VALUES (${post.id}, ${post.user_id}, ${post.mode}, ${post.caption}, ${JSON.stringify(post.platforms)},
                  ${post.status}, ${post.media}, ${post.scheduled_at}, ${post.published_at},
                  ${post.created_at},
                  ${post.status === "publishing" ? post.created_at + this.publishLeaseMs : null},
                  ${captionsColumn(post.captions)})`.execute(),
        tx`INSERT INTO post_creations (user_id, post_id, created_at)
           VALUES (${post.user_id}, ${post.id}, ${post.created_at})`.execute(),
        wakeAt !== null ? this.wake(tx, `due:${wakeAt}`) : undefined,
        this.writeTargets(tx, post.id, targets),
        effects?.events && effects.events.length > 0 ? this.enabledEndpoints(tx, post.user_id) : undefined,
      ]);
      await this.writeEffects(tx, effects, endpoints && new Map([[post.user_id, endpoints]]));
    });
    if (post.status === "publishing") this.leases.hold(post.id, post.created_at + this.publishLeaseMs);
  }

  async getPost(userId: string, id: string): Promise<PostRecord | null> {
    const row = await this.one(() => this.sql`SELECT * FROM posts WHERE id = ${id} AND user_id = ${userId}`);
    return row ? toPost(row) : null;
  }

  async listPosts(userId: string, options: ListPostsOptions): Promise<PostRecord[]> {
    const statuses = options.statuses && options.statuses.length > 0 ? options.statuses : null;
    const sql = this.sql;
    return (
      await this.rows(
        () => sql`SELECT * FROM posts
          WHERE user_id = ${userId}
            ${statuses ? sql`AND status IN ${sql(statuses)}` : sql``}
            ${options.beforeId !== undefined ? sql`AND id < ${options.beforeId}` : sql``}
          ORDER BY id DESC LIMIT ${options.limit}`,
      )
    ).map(toPost);
  }

  async countPostsCreatedSince(userId: string, since: number): Promise<number> {
    const row = await this.one(
      () => this.sql`SELECT count(*) AS n FROM post_creations
                     WHERE user_id = ${userId} AND created_at >= ${since}`,
    );
    return (row?.n as number) ?? 0;
  }

  async getTargets(postId: string): Promise<TargetRecord[]> {
    return (
      await this.rows(() => this.sql`SELECT * FROM targets WHERE post_id = ${postId} ORDER BY position`)
    ).map(toTarget);
  }

  async sumTargetMetrics(postIds: readonly string[]): Promise<Map<string, TargetMetrics>> {
    if (postIds.length === 0) return new Map();
    const rows = await this.rows(
      () => this.sql`SELECT post_id, sum(reach)::bigint AS reach, sum(likes)::bigint AS likes,
                            sum(comments)::bigint AS comments, sum(shares)::bigint AS shares
                     FROM targets WHERE post_id = ANY(${this.sql.array([...postIds])}::text[])
                     GROUP BY post_id`,
    );
    return new Map(
      rows.map((row) => [
        row.post_id as string,
        {
          reach: row.reach as number,
          likes: row.likes as number,
          comments: row.comments as number,
          shares: row.shares as number,
        },
      ]),
    );
  }

  async deletePost(
    userId: string,
    id: string,
    effectsFor?: (post: PostRecord) => Effects,
  ): Promise<PostRecord | null> {
    return this.tx(async (tx) => {
      const [row] = await tx`DELETE FROM posts WHERE id = ${id} AND user_id = ${userId} RETURNING *`;
      if (!row) return null;
      const post = toPost(row);
      await tx`DELETE FROM targets WHERE post_id = ${id}`;
      await this.writeEffects(tx, effectsFor?.(post));
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
    let lease: number | null = null;
    const next = await this.tx(async (tx) => {
      // Locked as read: a delete, a claim or another transition of this post waits for this one to commit.
      const [row] = await tx`SELECT * FROM posts WHERE id = ${id} FOR UPDATE`;
      if (!row) return null;
      const post = toPost(row);
      if (!from.includes(post.status)) return null;
      const next: PostRecord = {
        ...post,
        ...(patch.status !== undefined && { status: patch.status }),
        ...(patch.scheduled_at !== undefined && { scheduled_at: patch.scheduled_at }),
        ...(patch.published_at !== undefined && { published_at: patch.published_at }),
        ...(patch.caption !== undefined && { caption: patch.caption }),
        ...(patch.platforms !== undefined && { platforms: [...patch.platforms] }),
        ...(patch.media !== undefined && { media: patch.media }),
      };
      const captions = captionsColumn(patch.captions !== undefined ? patch.captions : post.captions);
      if (captions === null) delete next.captions;
      else next.captions = JSON.parse(captions) as PostRecord["captions"];
      // Publishing is leased from now (the caller's clock is not passed here; leases are wall-clock).
      lease = next.status === "publishing" ? Date.now() + this.publishLeaseMs : null;
      await tx`UPDATE posts SET status = ${next.status}, scheduled_at = ${next.scheduled_at},
                                published_at = ${next.published_at}, lease_until = ${lease},
                                caption = ${next.caption}, platforms = ${JSON.stringify(next.platforms)},
                                media = ${next.media}, captions = ${captions}
               WHERE id = ${id}`;
      if (next.status === "scheduled" && next.scheduled_at !== null) {
        await this.wake(tx, `due:${next.scheduled_at}`);
      }
      if (lease !== null) await this.wake(tx, `due:${lease}`);
      if (targets) {
        await tx`DELETE FROM targets WHERE post_id = ${id}`;
        await this.writeTargets(tx, id, targets);
      }
      await this.writeEffects(tx, typeof effects === "function" ? effects(next) : effects);
      return next;
    });
    if (next !== null) this.holdOrRelease(id, lease);
    return next;
  }

  /** After a commit that wrote the post's lease: held here while leased, let go of once not. */
  private holdOrRelease(postId: string, lease: number | null): void {
    if (lease === null) this.leases.release(postId);
    else this.leases.hold(postId, lease);
  }

  async claimDuePosts(now: number, limit: number): Promise<PostRecord[]> {
    // Due rows are locked as they are read, and rows another instance is claiming right now are skipped
    // rather than waited for, so instances claiming together share the posts. A post whose claim
    // outlived its lease (its instance died while publishing) is claimed again, first; attempts that
    // instance left in flight become of unknown outcome, so they are checked with the network before
    // anything is resent.
    const lease = now + this.publishLeaseMs;
    const rows = await this.tx(async (tx) => {
      const rows = await tx`
        WITH expired AS (
          SELECT id FROM posts WHERE status = 'publishing' AND lease_until <= ${now}
          ORDER BY lease_until LIMIT ${limit}
          FOR UPDATE SKIP LOCKED),
        due AS (
          SELECT id FROM posts WHERE status = 'scheduled' AND scheduled_at <= ${now}
          ORDER BY scheduled_at, id LIMIT ${limit}
          FOR UPDATE SKIP LOCKED),
        chosen AS (
          SELECT id FROM expired UNION ALL SELECT id FROM due LIMIT ${limit})
        UPDATE posts p SET status = 'publishing', lease_until = ${lease}
        FROM posts old
        WHERE p.id IN (SELECT id FROM chosen) AND old.id = p.id
        RETURNING p.*, old.status AS previous_status`;
      const takenOver = rows
        .filter((row) => row.previous_status === "publishing")
        .map((row) => row.id as string);
      // The other instances' schedulers wake when these leases run out: were this instance to die
      // while publishing, nothing else would make them look before their next scheduled post.
      if (rows.length > 0) await this.wake(tx, `due:${lease}`);
      if (takenOver.length > 0) {
        await tx`UPDATE targets SET in_flight = 0, outcome_unknown = 1, next_attempt_at = ${now}
                 WHERE post_id = ANY(${tx.array(takenOver)}::text[]) AND in_flight = 1`;
      }
      return rows;
    });
    for (const row of rows) this.leases.hold(row.id as string, lease);
    const dueAt = (p: PostRecord) => p.scheduled_at ?? p.created_at;
    return rows.map(toPost).sort((a, b) => dueAt(a) - dueAt(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async nextDueAt(): Promise<number | null> {
    // least() skips nulls: the earliest due post, or the earliest lease that will run out.
    const row = await this.one(
      () => this.sql`SELECT least(
        (SELECT min(scheduled_at) FROM posts WHERE status = 'scheduled'),
        (SELECT min(lease_until) FROM posts WHERE status = 'publishing')) AS due`,
    );
    return (row?.due as number | null) ?? null;
  }

  async releaseInterruptedPublishing(): Promise<number> {
    // Another instance may be publishing what looks interrupted: leases hand such posts over instead.
    return 0;
  }

  /**
   * One statement for every post this instance holds: a row still carrying the lease written here is
   * this instance's claim. It is renewed while an attempt of it is in flight, or, before its attempts
   * start (a post waiting its turn in a claimed batch), for at most one lease from when it was taken,
   * so a post this instance forgot is not kept from the others for ever. No wake-up: the instances
   * woken for the lease it replaces find the later one in nextDueAt.
   */
  private async renewLeases(held: readonly HeldLease[], until: number, now: number): Promise<string[]> {
    const rows = await this.guard(
      () => this.pools.leases`
        UPDATE posts p SET lease_until = ${until}
        FROM jsonb_to_recordset(${JSON.stringify(held)}::text::jsonb) AS h(id text, lease bigint, since bigint)
        WHERE p.id = h.id AND p.status = 'publishing' AND p.lease_until = h.lease
          AND (h.since > ${now - this.publishLeaseMs}
               OR EXISTS (SELECT 1 FROM targets t WHERE t.post_id = p.id AND t.in_flight = 1))
        RETURNING p.id`,
    );
    return rows.map((row) => row.id as string);
  }

  // ── publishing targets ──────────────────────────────────────────────────────────────────────────

  async beginTargetAttempts(
    postId: string,
    platforms: readonly NetworkId[],
    now: number,
  ): Promise<TargetRecord[]> {
    if (platforms.length === 0) return [];
    const { started } = await this.startAttempts(postId, platforms, now);
    return started.sort((a, b) => platforms.indexOf(a.platform) - platforms.indexOf(b.platform));
  }

  beginAllAttempts(
    postId: string,
    now: number,
  ): Promise<{ targets: TargetRecord[]; started: TargetRecord[] }> {
    return this.startAttempts(postId, null, now);
  }

  /**
   * Starts the attempts of the named targets (null: all of the post's) that are due, and answers every
   * target of the post as it now stands (only those started, when some are named), in network order.
   */
  private async startAttempts(
    postId: string,
    platforms: readonly NetworkId[] | null,
    now: number,
  ): Promise<{ targets: TargetRecord[]; started: TargetRecord[] }> {
    // One statement: each target row is locked while it is changed, so of two callers one starts it.
    // The post's lease runs from the start of its attempts, not from its claim: a post waiting its turn
    // in a claimed batch must not be taken over as cut off while its attempts are still to come or under
    // way (the taker would mark them of unknown outcome and make them again). Renewed only once half
    // of it is spent, so a post published right after its claim costs no extra write. No wake-up:
    // instances woken for the claim's lease find this later one in nextDueAt.
    const lease = Date.now() + this.publishLeaseMs;
    const halfSpent = lease - Math.ceil(this.publishLeaseMs / 2);
    const sql = this.sql;
    const rows = await this.rows(
      () => sql`
        WITH started AS (
          UPDATE targets SET in_flight = 1, attempts = attempts + 1, attempted_at = ${now}, next_attempt_at = NULL
          WHERE post_id = ${postId}
            ${platforms ? sql`AND platform = ANY(${sql.array([...platforms])}::text[])` : sql``}
            AND status = 'pending' AND in_flight = 0 AND (next_attempt_at IS NULL OR next_attempt_at <= ${now})
          RETURNING *),
        renewed AS (
          UPDATE posts SET lease_until = ${lease}
          WHERE id = ${postId} AND status = 'publishing' AND EXISTS (SELECT 1 FROM started)
            AND (lease_until IS NULL OR lease_until < ${halfSpent})
          RETURNING lease_until)
        SELECT started.*, true AS started, (SELECT lease_until FROM renewed) AS renewed_lease,
          (SELECT lease_until FROM posts WHERE id = ${postId} AND status = 'publishing') AS post_lease
        FROM started
        ${
          platforms
            ? sql``
            : sql`UNION ALL
                  SELECT t.*, false, NULL, NULL FROM targets t
                  WHERE t.post_id = ${postId} AND t.platform NOT IN (SELECT platform FROM started)`
        }
        ORDER BY position`,
    );
    const started = rows.filter((row) => row.started === true);
    // A lease renewed here is this instance's; one left as it was (read from the statement's snapshot,
    // before the renewal) stays held only if it is the one this instance wrote.
    const renewed = (started[0]?.renewed_lease as number | null | undefined) ?? null;
    if (renewed !== null) this.leases.hold(postId, renewed);
    else if (started.length > 0)
      this.leases.releaseUnless(postId, (started[0]?.post_lease as number | null) ?? null);
    return { targets: rows.map(toTarget), started: started.map(toTarget) };
  }

  async claimDueTargets(now: number, limit: number): Promise<ClaimedTarget[]> {
    return this.tx(async (tx) => {
      const due = await tx`
        SELECT t.post_id, t.platform FROM targets t JOIN posts p ON p.id = t.post_id
        WHERE t.next_attempt_at IS NOT NULL AND t.next_attempt_at <= ${now} AND t.status = 'pending'
          AND t.in_flight = 0 AND p.status IN ('publishing', 'published')
        ORDER BY t.next_attempt_at LIMIT ${limit}
        FOR UPDATE OF t SKIP LOCKED`;
      const claimed: ClaimedTarget[] = [];
      for (const row of due) {
        const [target] = await tx`
          UPDATE targets SET in_flight = 1, attempts = attempts + 1, attempted_at = ${now}, next_attempt_at = NULL
          WHERE post_id = ${row.post_id as string} AND platform = ${row.platform as string}
          RETURNING *`;
        const [post] = await tx`SELECT * FROM posts WHERE id = ${row.post_id as string}`;
        if (target && post) claimed.push({ post: toPost(post), target: toTarget(target) });
      }
      // A retry has no post lease: the other instances' in-flight sweeps watch it instead.
      if (claimed.length > 0) await this.wake(tx, `attempt:${now}`);
      return claimed;
    });
  }

  async nextTargetAttemptAt(): Promise<number | null> {
    const row = await this.one(
      () => this.sql`SELECT min(next_attempt_at) AS at FROM targets
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
    let kept: number | null = null;
    const settled = await this.tx(async (tx) => {
      // One round trip: the post locked first (a delete or a claim of it waits for this transaction),
      // then the outcomes written, and the user's webhook endpoints read for the events to come.
      const [[row], outcomes, endpoints] = await together([
        tx`SELECT * FROM posts WHERE id = ${postId} FOR UPDATE`,
        writeTargetOutcomes(tx, postId, targets),
        tx`SELECT * FROM webhooks
           WHERE user_id = (SELECT user_id FROM posts WHERE id = ${postId}) AND status = 'enabled'
           ORDER BY created_at, id`,
      ]);
      if (!row) return null;
      const post = toPost(row);
      const stored = outcomes.map(toTarget);
      const settled: PostRecord = { ...post, ...settledPost(post, stored, now) };
      // The lease guards attempts in flight: once none is, a post still publishing only waits for
      // retries, which the retry worker claims target by target (and the in-flight sweep recovers), so
      // it is no longer taken over as a whole, which would mark a retry under way as cut off.
      const lease =
        settled.status === "publishing" && stored.some((t) => t.in_flight) ? row.lease_until : null;
      // A retry written here is due on every instance's timer, not only this one's: this instance may
      // die before it, and the others' retry workers, armed earlier, know nothing of it.
      const retryAt = earliestRetry(targets);
      const written = new Set(
        outcomes.filter((row) => row.written === true).map((row) => row.platform as NetworkId),
      );
      const toWrite = typeof effects === "function" ? effects(settled, written) : effects;
      // The second and last round trip before the commit: the post, its wake-ups and its effects.
      await together([
        tx`UPDATE posts SET status = ${settled.status}, scheduled_at = ${settled.scheduled_at},
                            published_at = ${settled.published_at}, lease_until = ${lease as number | null}
           WHERE id = ${postId}`.execute(),
        retryAt !== null ? this.wake(tx, `retry:${retryAt}`) : undefined,
        this.writeEffects(tx, toWrite, new Map([[post.user_id, endpoints.map(toWebhook)]])),
      ]);
      kept = lease;
      return settled;
    });
    // The lease kept is the one the row had: still held here only if it is the one written here.
    if (settled !== null) this.leases.releaseUnless(postId, kept);
    return settled;
  }

  async saveTargetStep(
    postId: string,
    platform: NetworkId,
    attempts: number,
    step: string | null,
  ): Promise<boolean> {
    const rows = await this.rows(
      () => this.sql`UPDATE targets SET publish_step = ${step}
                     WHERE post_id = ${postId} AND platform = ${platform} AND in_flight = 1
                       AND attempts = ${attempts}
                     RETURNING post_id`,
    );
    return rows.length > 0;
  }

  async oldestAttemptInFlight(): Promise<number | null> {
    const row = await this.one(
      () => this.sql`SELECT min(attempted_at) AS at FROM targets WHERE in_flight = 1`,
    );
    return (row?.at as number | null) ?? null;
  }

  async releaseInterruptedTargets(startedBefore: number, now: number): Promise<number> {
    const rows = await this.rows(
      () => this.sql`UPDATE targets SET in_flight = 0, outcome_unknown = 1, next_attempt_at = ${now}
                     WHERE in_flight = 1 AND attempted_at < ${startedBefore} RETURNING post_id`,
    );
    return rows.length;
  }

  async recentAttemptTimes(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    since: number,
  ): Promise<number[]> {
    const rows = await this.rows(
      () => this.sql`SELECT t.attempted_at AS at FROM targets t JOIN posts p ON p.id = t.post_id
                     WHERE t.platform = ${platform} AND t.attempted_at >= ${since}
                       AND p.user_id = ${userId} AND p.mode = ${mode}
                     ORDER BY t.attempted_at`,
    );
    return rows.map((row) => row.at as number);
  }

  async claimDueMetricReads(now: number, leaseUntil: number, limit: number): Promise<ClaimedTarget[]> {
    return this.tx(async (tx) => {
      const rows = await tx`
        UPDATE targets SET metrics_due_at = ${leaseUntil}
        WHERE (post_id, platform) IN (
          SELECT post_id, platform FROM targets
          WHERE metrics_due_at IS NOT NULL AND metrics_due_at <= ${now} AND status = 'published'
          ORDER BY metrics_due_at LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING *`;
      const claimed: ClaimedTarget[] = [];
      for (const row of rows) {
        const target = toTarget(row);
        const [post] = await tx`SELECT * FROM posts WHERE id = ${target.post_id}`;
        if (post) claimed.push({ post: toPost(post), target });
      }
      return claimed;
    });
  }

  async nextMetricsReadAt(): Promise<number | null> {
    const row = await this.one(
      () => this.sql`SELECT min(metrics_due_at) AS at FROM targets
                     WHERE metrics_due_at IS NOT NULL AND status = 'published'`,
    );
    return (row?.at as number | null) ?? null;
  }

  async scheduleMetricsRead(
    postId: string,
    platform: NetworkId,
    dueAt: number | null,
    reads: number,
  ): Promise<void> {
    await this.rows(
      () => this.sql`UPDATE targets SET metrics_due_at = ${dueAt}, metrics_reads = ${reads}
                     WHERE post_id = ${postId} AND platform = ${platform} RETURNING post_id`,
    );
  }

  async reportMetrics(
    postId: string,
    platform: NetworkId,
    metrics: TargetMetrics,
    effectsFor?: (target: TargetRecord) => Effects,
  ): Promise<TargetRecord | null> {
    return this.tx(async (tx) => {
      const [row] = await tx`
        UPDATE targets SET reach = greatest(reach, ${metrics.reach}), likes = greatest(likes, ${metrics.likes}),
                           comments = greatest(comments, ${metrics.comments}),
                           shares = greatest(shares, ${metrics.shares})
        WHERE post_id = ${postId} AND platform = ${platform}
        RETURNING *`;
      if (!row) return null;
      const target = toTarget(row);
      await this.writeEffects(tx, effectsFor?.(target));
      return target;
    });
  }

  async listPublishedTargets(userId: string): Promise<TargetRecord[]> {
    return (
      await this.rows(
        () => this.sql`SELECT t.* FROM targets t JOIN posts p ON p.id = t.post_id
                       WHERE p.user_id = ${userId} AND p.status = 'published' AND t.status = 'published'
                       ORDER BY p.id, t.position`,
      )
    ).map(toTarget);
  }

  async countPublishedPosts(userId: string): Promise<number> {
    const row = await this.one(
      () => this.sql`SELECT count(*) AS n FROM posts WHERE user_id = ${userId} AND status = 'published'`,
    );
    return (row?.n as number) ?? 0;
  }

  async sumPublishedMetricsByPlatform(userId: string): Promise<PlatformTotals[]> {
    const rows = await this.rows(
      () => this.sql`
        SELECT t.platform, count(*) AS posts, sum(t.reach)::bigint AS reach, sum(t.likes)::bigint AS likes,
               sum(t.comments)::bigint AS comments, sum(t.shares)::bigint AS shares
        FROM targets t JOIN posts p ON p.id = t.post_id
        WHERE p.user_id = ${userId} AND p.status = 'published' AND t.status = 'published'
        GROUP BY t.platform`,
    );
    return rows.map((row) => ({
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
    await this.tx(async (tx) => {
      await tx`INSERT INTO webhooks (id, user_id, url, events, secret, status, created_at)
               VALUES (${webhook.id}, ${webhook.user_id}, ${webhook.url}, ${JSON.stringify(webhook.events)},
                       ${webhook.secret}, ${webhook.status}, ${webhook.created_at})`;
      await this.writeEffects(tx, effects);
    });
  }

  async listWebhooks(userId: string): Promise<WebhookRecord[]> {
    return (
      await this.rows(() => this.sql`SELECT * FROM webhooks WHERE user_id = ${userId} ORDER BY id`)
    ).map(toWebhook);
  }

  async getWebhook(userId: string, id: string): Promise<WebhookRecord | null> {
    const row = await this.one(
      () => this.sql`SELECT * FROM webhooks WHERE id = ${id} AND user_id = ${userId}`,
    );
    return row ? toWebhook(row) : null;
  }

  async deleteWebhook(userId: string, id: string, effects?: Effects): Promise<boolean> {
    return this.tx(async (tx) => {
      const removed = await tx`DELETE FROM webhooks WHERE id = ${id} AND user_id = ${userId} RETURNING id`;
      if (removed.length === 0) return false;
      // Deliveries still owed to a removed endpoint can never be made; their history goes with it.
      await tx`DELETE FROM delivery_attempts WHERE webhook_id = ${id}`;
      await tx`DELETE FROM deliveries WHERE webhook_id = ${id}`;
      await this.writeEffects(tx, effects);
      return true;
    });
  }

  async setWebhookStatus(id: string, status: WebhookStatus): Promise<void> {
    await this.tx(async (tx) => {
      await tx`UPDATE webhooks SET status = ${status} WHERE id = ${id}`;
      // Nothing more is sent to a disabled endpoint: what it was still owed ends here.
      if (status === "disabled") await this.endOwedTo(tx, id);
      else await this.wake(tx, "owed");
    });
  }

  private async endOwedTo(tx: Tx, webhookId: string): Promise<void> {
    await tx`UPDATE deliveries SET state = 'failed', next_attempt_at = NULL
             WHERE webhook_id = ${webhookId} AND state = 'pending'`;
  }

  async listWebhookSecrets(): Promise<Pick<WebhookRecord, "id" | "user_id" | "secret">[]> {
    const rows = await this.rows(() => this.sql`SELECT id, user_id, secret FROM webhooks ORDER BY id`);
    return rows.map((row) => ({
      id: row.id as string,
      user_id: row.user_id as string,
      secret: row.secret as string,
    }));
  }

  async setWebhookSecret(id: string, secret: string, expected: string): Promise<boolean> {
    const rows = await this.rows(
      () =>
        this
          .sql`UPDATE webhooks SET secret = ${secret} WHERE id = ${id} AND secret = ${expected} RETURNING id`,
    );
    return rows.length > 0;
  }

  async updateWebhook(userId: string, id: string, patch: WebhookPatch): Promise<WebhookRecord | null> {
    return this.tx(async (tx) => {
      const [row] = await tx`SELECT * FROM webhooks WHERE id = ${id} AND user_id = ${userId} FOR UPDATE`;
      if (!row) return null;
      const next: WebhookRecord = { ...toWebhook(row), ...definedFields(patch) };
      await tx`UPDATE webhooks SET url = ${next.url}, events = ${JSON.stringify(next.events)},
                                   status = ${next.status}
               WHERE id = ${id}`;
      if (next.status === "disabled") await this.endOwedTo(tx, id);
      else if (row.status !== "enabled") await this.wake(tx, "owed");
      return next;
    });
  }

  async appendEvents(events: NewEvent[], effects?: Effects): Promise<void> {
    await this.tx(async (tx) => {
      await this.writeEvents(tx, events);
      await this.writeEffects(tx, effects);
    });
  }

  async claimDueDeliveries(
    now: number,
    leaseUntil: number,
    limit: number,
    options: ClaimOptions = {},
  ): Promise<DeliveryJob[]> {
    if (limit <= 0) return [];
    return this.tx(async (tx) => {
      const claim = new DeliveryClaim(limit, options);
      const chosen: DeliveryRecord[] = [];
      const undeliverable: string[] = [];
      // Due deliveries in order, read a page at a time until the batch is full, each row locked as it is
      // read; rows another instance is claiming are skipped. Per endpoint, only as many as it has room for.
      const page = Math.max(limit * 2, 64);
      let after: { at: number; seq: number } | null = null;
      for (;;) {
        const rows: Row[] = await tx`
          SELECT d.*, w.status AS webhook_status,
                 EXISTS (SELECT 1 FROM events e WHERE e.id = d.event_id) AS has_event
          FROM deliveries d LEFT JOIN webhooks w ON w.id = d.webhook_id
          WHERE d.state = 'pending' AND d.next_attempt_at <= ${now}
            ${after ? tx`AND (d.next_attempt_at, d.seq) > (${after.at}, ${after.seq})` : tx``}
          ORDER BY d.next_attempt_at, d.seq
          LIMIT ${page}
          FOR UPDATE OF d SKIP LOCKED`;
        for (const row of rows) {
          if (claim.full) break;
          if (row.webhook_status !== "enabled" || !row.has_event) {
            undeliverable.push(row.id as string);
            continue;
          }
          if (claim.take(row.webhook_id as string)) chosen.push(toDelivery(row));
        }
        const last = rows.at(-1);
        if (claim.full || rows.length < page || !last) break;
        after = { at: last.next_attempt_at as number, seq: last.seq as number };
      }
      if (undeliverable.length > 0) {
        await tx`UPDATE deliveries SET state = 'failed', next_attempt_at = NULL
                 WHERE id = ANY(${tx.array(undeliverable)}::text[])`;
      }
      if (chosen.length === 0) return [];
      const ids = chosen.map((d) => d.id);
      await tx`UPDATE deliveries SET next_attempt_at = ${leaseUntil} WHERE id = ANY(${tx.array(ids)}::text[])`;
      const eventIds = [...new Set(chosen.map((d) => d.event_id))];
      const webhookIds = [...new Set(chosen.map((d) => d.webhook_id))];
      const events = new Map(
        (await tx`SELECT * FROM events WHERE id = ANY(${tx.array(eventIds)}::text[])`).map((row) => [
          row.id as string,
          toEvent(row),
        ]),
      );
      const webhooks = new Map(
        (await tx`SELECT * FROM webhooks WHERE id = ANY(${tx.array(webhookIds)}::text[])`).map((row) => [
          row.id as string,
          toWebhook(row),
        ]),
      );
      return chosen.map((delivery) => ({
        delivery: { ...delivery, next_attempt_at: leaseUntil },
        event: structuredClone(events.get(delivery.event_id)!),
        webhook: structuredClone(webhooks.get(delivery.webhook_id)!),
      }));
    });
  }

  async recordAttempt(
    attempt: Omit<AttemptRecord, "next_attempt_at">,
    next: { state: DeliveryState; next_attempt_at: number | null },
  ): Promise<void> {
    await this.tx(async (tx) => {
      await tx`
        INSERT INTO delivery_attempts (id, delivery_id, attempt, webhook_id, event_id, at, response_status,
                                       duration_ms, error, next_attempt_at)
        VALUES (${attempt.id}, ${attempt.delivery_id}, ${attempt.attempt}, ${attempt.webhook_id},
                ${attempt.event_id}, ${attempt.at}, ${attempt.response_status}, ${attempt.duration_ms},
                ${attempt.error}, ${next.next_attempt_at})`;
      await tx`UPDATE deliveries SET state = ${next.state}, next_attempt_at = ${next.next_attempt_at},
                                     attempts = greatest(attempts, ${attempt.attempt})
               WHERE id = ${attempt.delivery_id}`;
    });
  }

  async nextDeliveryAt(options: { excludeWebhookIds?: readonly string[] } = {}): Promise<number | null> {
    const excluded = options.excludeWebhookIds ?? [];
    const row = await this.one(() =>
      excluded.length === 0
        ? this.sql`SELECT min(next_attempt_at) AS due FROM deliveries WHERE state = 'pending'`
        : this.sql`SELECT min(next_attempt_at) AS due FROM deliveries
                   WHERE state = 'pending' AND webhook_id <> ALL(${this.sql.array([...excluded])}::text[])`,
    );
    return (row?.due as number | null) ?? null;
  }

  async listAttempts(webhookId: string, options: ListAttemptsOptions): Promise<AttemptLogEntry[]> {
    const sql = this.sql;
    return (
      await this.rows(
        () => sql`SELECT a.*, e.type AS event_type FROM delivery_attempts a JOIN events e ON e.id = a.event_id
                  WHERE a.webhook_id = ${webhookId}
                    ${options.beforeId !== undefined ? sql`AND a.id < ${options.beforeId}` : sql``}
                  ORDER BY a.id DESC LIMIT ${options.limit}`,
      )
    ).map(toAttemptLogEntry);
  }

  async resendEvent(
    webhookId: string,
    eventId: string,
    now: number,
    effectsFor?: (delivery: DeliveryRecord) => Effects,
  ): Promise<DeliveryRecord | null> {
    return this.tx(async (tx) => {
      const found = await tx`SELECT 1 FROM webhooks w JOIN events e ON e.user_id = w.user_id
                             WHERE w.id = ${webhookId} AND e.id = ${eventId}`;
      if (found.length === 0) return null;
      const delivery: DeliveryRecord = {
        id: newDeliveryId(),
        event_id: eventId,
        webhook_id: webhookId,
        state: "pending",
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
      };
      await this.insertDeliveries(tx, [delivery]);
      await this.wake(tx, "owed");
      await this.writeEffects(tx, effectsFor?.(delivery));
      return delivery;
    });
  }

  async listEvents(userId: string): Promise<NewEvent[]> {
    return (await this.rows(() => this.sql`SELECT * FROM events WHERE user_id = ${userId} ORDER BY seq`)).map(
      toEvent,
    );
  }

  async pruneDeliveryHistory(before: number, limit: number): Promise<number> {
    return this.tx(async (tx) => {
      const ids = (
        await tx`SELECT id FROM events e
                 WHERE created < ${Math.ceil(before / 1000)} AND NOT EXISTS (
                   SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
                 ORDER BY created LIMIT ${limit}
                 FOR UPDATE SKIP LOCKED`
      ).map((row) => row.id as string);
      if (ids.length === 0) return 0;
      const list = tx.array(ids);
      await tx`DELETE FROM delivery_attempts WHERE delivery_id IN (
                 SELECT id FROM deliveries WHERE event_id = ANY(${list}::text[]))`;
      await tx`DELETE FROM deliveries WHERE event_id = ANY(${list}::text[])`;
      await tx`DELETE FROM events WHERE id = ANY(${list}::text[])`;
      return ids.length;
    });
  }

  // ── daily analytics ─────────────────────────────────────────────────────────────────────────────

  async lastAnalyticsDay(userId: string): Promise<string | null> {
    const row = await this.one(
      () => this.sql`SELECT last_date FROM analytics_days WHERE user_id = ${userId}`,
    );
    return row ? (row.last_date as string) : null;
  }

  async settleAnalyticsDay(userId: string, date: string, events: NewEvent[]): Promise<boolean> {
    return this.tx(async (tx) => {
      const settled = await tx`
        INSERT INTO analytics_days (user_id, last_date) VALUES (${userId}, ${date})
        ON CONFLICT (user_id) DO UPDATE SET last_date = excluded.last_date
        WHERE excluded.last_date > analytics_days.last_date
        RETURNING user_id`;
      if (settled.length === 0) return false;
      await this.writeEvents(tx, events);
      return true;
    });
  }

  // ── idempotency keys ────────────────────────────────────────────────────────────────────────────

  async beginIdempotentRequest(record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    return this.tx(async (tx) => {
      // The primary key decides races between instances: of two inserts of one key, the second waits
      // for the first to commit and then finds its row (and takes it over only when it has expired).
      const claimed = await tx`
        INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
        VALUES (${record.user_id}, ${record.key}, ${record.fingerprint}, ${record.status}, ${record.body},
                ${record.created_at}, ${record.expires_at})
        ON CONFLICT (user_id, key) DO UPDATE SET
          fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
          created_at = excluded.created_at, expires_at = excluded.expires_at
        WHERE idempotency_keys.expires_at <= excluded.created_at
        RETURNING user_id`;
      if (claimed.length > 0) return null;
      const [row] = await tx`SELECT * FROM idempotency_keys WHERE user_id = ${record.user_id}
                                                          AND key = ${record.key}`;
      return row ? toIdempotency(row) : null;
    });
  }

  async findIdempotentRequest(userId: string, key: string, now: number): Promise<IdempotencyRecord | null> {
    const row = await this.one(
      () => this.sql`SELECT * FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}
                                                      AND expires_at > ${now}`,
    );
    return row ? toIdempotency(row) : null;
  }

  async completeIdempotentRequest(
    userId: string,
    key: string,
    response: { status: number; body: string; expires_at: number },
  ): Promise<void> {
    await this.rows(
      () => this.sql`UPDATE idempotency_keys SET status = ${response.status}, body = ${response.body},
                                                 expires_at = ${response.expires_at}
                     WHERE user_id = ${userId} AND key = ${key}`,
    );
  }

  async releaseIdempotentRequest(userId: string, key: string): Promise<void> {
    await this.rows(
      () =>
        this.sql`DELETE FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key} AND status IS NULL`,
    );
  }

  async releaseInterruptedIdempotentRequests(): Promise<number> {
    // A key in flight may be another instance's request: it frees itself when its in-flight lease ends.
    return 0;
  }

  /** Removes records that expired before `now`, a batch at a time (the retention pass calls it). */
  async pruneExpiredIdempotencyKeys(now: number, limit = 1000): Promise<number> {
    const rows = await this.rows(
      () => this.sql`DELETE FROM idempotency_keys WHERE (user_id, key) IN (
                       SELECT user_id, key FROM idempotency_keys WHERE expires_at <= ${now} LIMIT ${limit}
                       FOR UPDATE SKIP LOCKED)
                     RETURNING key`,
    );
    return rows.length;
  }

  // ── media ───────────────────────────────────────────────────────────────────────────────────────

  async insertMedia(media: MediaRecord, effects?: Effects): Promise<void> {
    await this.tx(async (tx) => {
      await tx`INSERT INTO media (id, user_id, url, type, size, status, path, created_at)
               VALUES (${media.id}, ${media.user_id}, ${media.url}, ${media.type}, ${media.size},
                       ${media.status}, ${media.path}, ${media.created_at})`;
      await this.writeEffects(tx, effects);
    });
  }

  async getMedia(userId: string, id: string): Promise<MediaRecord | null> {
    const row = await this.one(() => this.sql`SELECT * FROM media WHERE id = ${id} AND user_id = ${userId}`);
    return row ? toMedia(row) : null;
  }

  // ── beyond the Store interface: operations and tests ────────────────────────────────────────────

  /** Every attempt made for a delivery, oldest first. */
  async listDeliveryAttempts(deliveryId: string): Promise<AttemptRecord[]> {
    return (
      await this.rows(
        () =>
          this.sql`SELECT * FROM delivery_attempts WHERE delivery_id = ${deliveryId} ORDER BY attempt, at`,
      )
    ).map(toAttempt);
  }

  /** The deliveries of one event, oldest first. */
  async listDeliveries(eventId: string): Promise<DeliveryRecord[]> {
    return (
      await this.rows(
        () => this.sql`SELECT * FROM deliveries WHERE event_id = ${eventId} ORDER BY created_at, id`,
      )
    ).map(toDelivery);
  }
}

/** The fields of a patch that are set: `{url: undefined}` changes nothing. */
function definedFields<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function newDeliveryId(): string {
  return `dlv_${randomUUID().replaceAll("-", "")}`;
}

/** The earliest next attempt among targets waiting for one (pending, not in flight), or null. */
function earliestRetry(targets: readonly TargetRecord[]): number | null {
  let at: number | null = null;
  for (const t of targets) {
    if (t.status !== "pending" || t.in_flight || t.next_attempt_at === null) continue;
    if (at === null || t.next_attempt_at < at) at = t.next_attempt_at;
  }
  return at;
}

/** The URL without its password, for messages and logs. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://…";
  }
}

/** Opens the store at `url`, migrating its schema. */
export function openPostgresStore(
  url: string,
  options: Omit<PostgresStoreOptions, "url"> = {},
): Promise<PostgresStore> {
  return PostgresStore.open({ ...options, url });
}
