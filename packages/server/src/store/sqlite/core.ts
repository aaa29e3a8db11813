import { resolve } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type { AuthorizedCall, Effects } from "@socialpub/core";
import { migrate } from "../migrate.ts";
import {
  type BackgroundCheckpoints,
  FALLBACK_AUTOCHECKPOINT_PAGES,
  startBackgroundCheckpoints,
} from "./background-checkpoints.ts";
import { ensureDatabaseFolder } from "./database-folder.ts";
import { GroupCommit } from "./group-commit.ts";
import { writeIdempotencyAnswer } from "./idempotency.ts";
import { addCalls, readKnownKey } from "./keys.ts";
import { KnownKeys } from "./known-keys.ts";
import { writeEvents } from "./outbox.ts";
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

export type Row = Record<string, unknown>;

/**
 * The SQLite store's transaction core: the connection, its prepared statements, and the one way to
 * write (`write`), with the effects every change carries. Each area of the store (accounts.ts,
 * posts.ts, …) is functions of this core.
 *
 * Atomicity: node:sqlite is synchronous. Every write runs whole without awaiting, in a savepoint of the
 * transaction (BEGIN IMMEDIATE … COMMIT) that commits the writes asked for in one turn of the event
 * loop together (group-commit.ts), so concurrent requests of this process can never interleave inside
 * one, and IMMEDIATE takes the write lock up front so another process cannot slip a write between our
 * read and our write. No write resolves before its commit.
 */
export class SqliteCore {
  readonly path: string;
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly arrayStatements = new Map<string, StatementSync>();
  private readonly checkpoints: BackgroundCheckpoints | null = null;
  readonly commits: GroupCommit;
  readonly knownKeys = new KnownKeys(() => this.getArray("PRAGMA data_version")![0] as number);

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

  // ── statements ──────────────────────────────────────────────────────────────────────────────────

  stmt(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  run(sql: string, ...params: SQLInputValue[]): number {
    return Number(this.stmt(sql).run(...params).changes);
  }

  get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.stmt(sql).get(...params) as Row | undefined;
  }

  all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.stmt(sql).all(...params) as Row[];
  }

  /** Rows as arrays of column values, in the order the statement selects them. */
  allArrays(sql: string, ...params: SQLInputValue[]): unknown[][] {
    return this.arrayStatement(sql).all(...params) as unknown as unknown[][];
  }

  /** The first row as an array of column values, in the order the statement selects them. */
  getArray(sql: string, ...params: SQLInputValue[]): unknown[] | undefined {
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

  // ── writes ──────────────────────────────────────────────────────────────────────────────────────

  /**
   * Runs `work` as one atomic write: in a savepoint of the transaction this turn of the event loop
   * commits (group-commit.ts), resolving once that has committed. `work` must be synchronous: that is
   * what keeps it atomic.
   */
  write<T>(work: () => T): Promise<T> {
    return this.commits.run(() => {
      // Any write may change a key or a user's posts version (triggers move it): the keys known are
      // read again by the calls counted after it.
      this.knownKeys.forgetAll();
      return work();
    });
  }

  /** Writes a change's effects: its events (the outbox) and the answer of the keyed request making it. */
  writeEffects(effects: Effects | undefined): void {
    if (!effects) return;
    writeEvents(this, effects.events);
    if (effects.idempotency) writeIdempotencyAnswer(this, effects.idempotency);
  }

  // ── API calls, counted in the group commit (usage-counter.ts) ───────────────────────────────────

  readonly usage = new UsageCounter(
    (userId, month, calls) => ({ calls: addCalls(this, userId, month, calls) }),
    (work) => this.commits.run(work),
  );

  /**
   * Calls counted by key, inside the transaction that counts them: the key, its user and the user's
   * posts version as this process knows them (known-keys.ts: exact, checked against other writers once
   * per transaction, forgotten by every write of its own), else read.
   */
  readonly authorizedCalls = new UsageCounter<AuthorizedCall>(
    (keyHash, month, calls) => {
      const known = this.knownKeys.get(keyHash) ?? readKnownKey(this, keyHash);
      if (!known) return null;
      return { ...known, calls: addCalls(this, known.user.id, month, calls) };
    },
    (work) => this.commits.run(work),
    () => this.knownKeys.checkOtherWriters(),
  );

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
}
