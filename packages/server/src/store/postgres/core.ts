import type { Effects, WebhookRecord } from "@socialpub/core";
import postgres, { type Sql, type TransactionSql } from "postgres";
import { DeadlineExceeded, withDeadline } from "./deadline.ts";
import { isRetryable, unavailableIfConnectionLost } from "./failures.ts";
import { writeIdempotencyAnswer } from "./idempotency.ts";
import { type HeldLease, LeaseKeeper } from "./lease-keeper.ts";
import { migratePostgres } from "./migrate.ts";
import { writeEvents } from "./outbox.ts";
import { together } from "./pipeline.ts";
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
export const WAKE_CHANNEL = "socialpub_wake";

export type Row = Record<string, unknown>;
/** The connections an instance works with; replaced together when a call finds them wedged. */
export interface Pools {
  sql: Sql;
  locks: Sql;
  /** The lease renewals' own connection: a pool busy with publishing must not make them wait. */
  leases: Sql;
}
export type Tx = TransactionSql;

/** A transaction that lost a deadlock or serialization race is run again this many times. */
const TRANSACTION_RETRIES = 5;

/**
 * The PostgreSQL store's transaction core: its pools, the bounded call (`guard`) and transaction (`tx`)
 * every area goes through, the wake-ups instances send each other, the effects every change carries,
 * and the leases of the posts this instance is publishing. Each area of the store (accounts.ts,
 * posts.ts, …) is functions of this core.
 */
export class PostgresCore {
  readonly url: string;

  /** Where the store points, without a password: for logs and the start line. */
  readonly description: string;

  pools: Pools;

  /** Opens new pools, to replace ones a call found wedged. */
  private readonly openPools: () => Pools;

  /** LISTEN's own connection (the driver keeps it apart and listens again after a reconnect). */
  readonly listener: Sql;

  readonly publishLeaseMs: number;

  private readonly deadlineMs: number;

  /** Renews the leases of the posts this instance is publishing (lease-keeper.ts). */
  readonly leases: LeaseKeeper;

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

  get sql(): Sql {
    return this.pools.sql;
  }

  /**
   * Connections whose transactions hold per-user locks (exclusivelyForUser), apart from the pool the locked work
   * itself uses: were they one pool, holders of every connection would wait for one forever.
   */
  get locks(): Sql {
    return this.pools.locks;
  }

  /** Connects, and brings the schema up to date (or refuses a schema newer than this server). */
  static async open(options: PostgresStoreOptions): Promise<PostgresCore> {
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
    const core = new PostgresCore(
      openPools,
      listener,
      options.url,
      options.publishLeaseMs ?? 60_000,
      deadlineMs,
    );
    try {
      // Unbounded: a migration of a large database may rightly take minutes, and the instances that
      // start meanwhile wait for its advisory lock.
      await core.guard(() => migratePostgres(core.sql), Number.POSITIVE_INFINITY);
    } catch (error) {
      await core.close();
      throw error;
    }
    return core;
  }

  /**
   * Runs one call to the database, bounded by the query deadline, turning a lost connection into
   * StoreUnavailableError. A call past the deadline means the driver lost track of a connection: the
   * pools are replaced, so the calls after it reach the database on fresh connections.
   */
  async guard<T>(work: () => Promise<T>, deadlineMs = this.deadlineMs): Promise<T> {
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

  async rows(query: () => Promise<readonly Row[]>): Promise<Row[]> {
    return this.guard(async () => [...(await query())]);
  }

  async one(query: () => Promise<readonly Row[]>): Promise<Row | undefined> {
    return (await this.rows(query))[0];
  }

  /** Runs `work` as one transaction, again when it lost a deadlock. */
  async tx<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
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

  /** Wakes every instance listening (this one too) once the transaction commits. */
  async wake(tx: Tx, payload: string): Promise<void> {
    await tx`SELECT pg_notify(${WAKE_CHANNEL}, ${payload})`;
  }

  /** Writes a change's effects: its events (the outbox) and the answer of the keyed request making it. */
  async writeEffects(
    tx: Tx,
    effects: Effects | undefined,
    endpointsOf?: Map<string, WebhookRecord[]>,
  ): Promise<void> {
    if (!effects) return;
    // Sent together (in this order); the claim of a key still throws when another request holds it.
    await together([
      writeEvents(this, tx, effects.events, endpointsOf),
      effects.idempotency ? writeIdempotencyAnswer(tx, effects.idempotency) : undefined,
    ]);
  }

  async ping(): Promise<void> {
    await this.rows(() => this.sql`SELECT 1`);
  }

  closing: Promise<void> | null = null;

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
