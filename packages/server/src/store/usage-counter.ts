/**
 * Counts API calls with one transaction for every call that arrives in the same turn of the event loop
 * (a group commit). Each call still learns its own exact count — calls of one user get consecutive
 * numbers — and none is answered before the transaction that holds it has committed, so the counter
 * stays exact under concurrency and survives kill -9 like any other write. What it saves is the commit
 * per request: on a file database every authenticated GET would otherwise append to the WAL on its own.
 */
export class UsageCounter {
  private pending = new Map<string, { userId: string; month: string; waiters: Waiter[] }>();
  private scheduled = false;

  /**
   * @param addCalls adds `calls` to (user, month) inside the transaction `inTransaction` runs, returning
   *   the new total.
   * @param inTransaction runs its argument as one transaction.
   */
  private readonly addCalls: (userId: string, month: string, calls: number) => number;
  private readonly inTransaction: (work: () => void) => void;

  constructor(
    addCalls: (userId: string, month: string, calls: number) => number,
    inTransaction: (work: () => void) => void,
  ) {
    this.addCalls = addCalls;
    this.inTransaction = inTransaction;
  }

  /** Adds one call and resolves with the count that includes it, once it is committed. */
  increment(userId: string, month: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const id = `${userId}\u0000${month}`;
      let entry = this.pending.get(id);
      if (!entry) {
        entry = { userId, month, waiters: [] };
        this.pending.set(id, entry);
      }
      entry.waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // Calls whose requests were read in this turn of the event loop join the same transaction.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what is waiting now; resolves once no call is left uncommitted. */
  async drain(): Promise<void> {
    this.flush();
  }

  private flush(): void {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.scheduled = false;
    if (batch.length === 0) return;
    const totals: number[] = [];
    try {
      this.inTransaction(() => {
        for (const entry of batch)
          totals.push(this.addCalls(entry.userId, entry.month, entry.waiters.length));
      });
    } catch (error) {
      for (const entry of batch) for (const waiter of entry.waiters) waiter.reject(error);
      return;
    }
    batch.forEach((entry, i) => {
      const first = totals[i]! - entry.waiters.length + 1;
      for (const [n, waiter] of entry.waiters.entries()) waiter.resolve(first + n);
    });
  }
}

interface Waiter {
  resolve: (count: number) => void;
  reject: (error: unknown) => void;
}
