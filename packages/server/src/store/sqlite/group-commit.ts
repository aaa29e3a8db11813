import type { DatabaseSync, StatementSync } from "node:sqlite";

/**
 * Runs the write transactions asked for in one turn of the event loop as one SQLite transaction (a
 * group commit), each inside a savepoint of its own.
 *
 * Why: on a WAL database a commit writes every page it changed, and concurrent requests change the
 * same pages (the last leaf of each table and index). Fifty publish-nows that commit one by one write
 * those pages fifty times; committed together, once. On `synchronous=FULL` the group also shares one
 * fsync.
 *
 * What stays as it was:
 * - Atomicity: each work runs synchronously inside its savepoint; one that throws is rolled back to
 *   it, alone, and its caller gets the error, while the others of the group commit.
 * - Durability: no caller learns its result before the commit that holds it has returned, so nothing
 *   is answered that kill -9 could undo.
 * - Isolation: the group runs in one synchronous call, so nothing else in this process reads between
 *   its works, and a reader never sees a write before it is committed. Works run in the order asked.
 */
export class GroupCommit {
  private readonly db: DatabaseSync;
  private readonly statement: (sql: string) => StatementSync;
  private queue: QueuedWork[] = [];
  private scheduled = false;

  private readonly rolledBack: () => void;

  /**
   * @param statement a prepared statement for `sql`, kept by the store (parsed once).
   * @param rolledBack called when a transaction is rolled back as a whole, so what the store keeps in
   *   memory from reads inside it can be dropped.
   */
  constructor(
    db: DatabaseSync,
    statement: (sql: string) => StatementSync,
    rolledBack: () => void = () => {},
  ) {
    this.db = db;
    this.statement = statement;
    this.rolledBack = rolledBack;
  }

  /** Runs `work` (synchronous) in the next group; resolves with its result once committed. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // Works asked for in this turn, microtasks included, join the same group.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what is queued now (before the database closes). */
  drain(): void {
    this.flush();
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    this.scheduled = false;
    if (batch.length === 0) return;
    if (batch.length === 1) {
      this.runAlone(batch[0]!);
      return;
    }
    this.runTogether(batch);
  }

  /** One work: a transaction of its own, no savepoint needed. */
  private runAlone(item: QueuedWork): void {
    let result: unknown;
    try {
      this.statement("BEGIN IMMEDIATE").run();
      result = item.work();
      this.statement("COMMIT").run();
    } catch (error) {
      this.rollback();
      item.reject(error);
      return;
    }
    item.resolve(result);
  }

  private runTogether(batch: readonly QueuedWork[]): void {
    /** Works whose changes are in the open transaction, with what they returned. */
    let held: { item: QueuedWork; result: unknown }[] = [];
    try {
      this.statement("BEGIN IMMEDIATE").run();
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    for (const item of batch) {
      try {
        this.statement("SAVEPOINT work").run();
        const result = item.work();
        this.statement("RELEASE work").run();
        held.push({ item, result });
      } catch (error) {
        item.reject(error);
        if (this.undoWork()) continue;
        // Some errors (a full disk, an I/O error) make SQLite roll the whole transaction back: the works
        // before this one are undone too, so they fail with it, and the rest start a new transaction.
        this.rollback();
        for (const undone of held) undone.item.reject(error);
        held = [];
        try {
          this.statement("BEGIN IMMEDIATE").run();
        } catch (beginError) {
          for (const rest of batch.slice(batch.indexOf(item) + 1)) rest.reject(beginError);
          return;
        }
      }
    }
    try {
      this.statement("COMMIT").run();
    } catch (error) {
      this.rollback();
      for (const { item } of held) item.reject(error);
      return;
    }
    for (const { item, result } of held) item.resolve(result);
  }

  /** Undoes the work that just failed, alone; false when the transaction around it is gone. */
  private undoWork(): boolean {
    if (!this.db.isTransaction) return false;
    try {
      this.statement("ROLLBACK TO work").run();
      this.statement("RELEASE work").run();
      return true;
    } catch {
      return false;
    }
  }

  private rollback(): void {
    this.rolledBack();
    if (this.db.isTransaction) this.statement("ROLLBACK").run();
  }
}

interface QueuedWork {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}
