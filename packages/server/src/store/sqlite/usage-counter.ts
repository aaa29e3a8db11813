/**
 * Counts API calls with one write for every call that arrives in the same turn of the event loop, run
 * in the store's group commit (group-commit.ts). Each call still learns its own exact count — calls of
 * one user get consecutive numbers — and none is answered before the transaction that holds it has
 * committed, so the counter stays exact under concurrency and survives kill -9 like any other write.
 * What it saves is a write per request: on a file database every authenticated GET would otherwise
 * update the same row on its own.
 *
 * Calls are grouped by a subject — a user id, or the hash of the key a call was made with, which the
 * transaction resolves to its user (authenticating inside the transaction that counts is cheaper than
 * a lookup of its own, and sees a revocation at once).
 */
export class UsageCounter<Counted extends { calls: number }> {
  private pending = new Map<string, Entry<Counted>>();
  private scheduled = false;

  /**
   * @param addCalls adds `calls` for (subject, month) inside the transaction `inTransaction` runs,
   *   answering what it counted with the new total in `calls`, or null when the subject counts nothing
   *   (an unknown or revoked key).
   * @param inTransaction runs its (synchronous) argument in a transaction of this turn of the event
   *   loop — the store's group commit — and resolves with its result once committed.
   */
  private readonly addCalls: (subject: string, month: string, calls: number) => Counted | null;
  private readonly inTransaction: <T>(work: () => T) => Promise<T>;
  private readonly beforeCounting: () => void;

  /**
   * @param beforeCounting runs once in each transaction, before its calls are counted (a store checks
   *   there what it keeps in memory against the database).
   */
  constructor(
    addCalls: (subject: string, month: string, calls: number) => Counted | null,
    inTransaction: <T>(work: () => T) => Promise<T>,
    beforeCounting: () => void = () => {},
  ) {
    this.addCalls = addCalls;
    this.inTransaction = inTransaction;
    this.beforeCounting = beforeCounting;
  }

  /** Adds one call and resolves with what was counted, its own count in `calls`, once committed. */
  increment(subject: string, month: string): Promise<Counted | null> {
    return new Promise((resolve, reject) => {
      const id = `${subject}\u0000${month}`;
      let entry = this.pending.get(id);
      if (!entry) {
        entry = { subject, month, waiters: [] };
        this.pending.set(id, entry);
      }
      entry.waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        void this.flush();
      }
    });
  }

  /**
   * Counts, in one work of the group commit, every call waiting when the group runs: calls whose
   * requests were read in this turn of the event loop share it.
   */
  private async flush(): Promise<void> {
    const taken: { batch: Entry<Counted>[] | null } = { batch: null };
    const take = () => {
      taken.batch = [...this.pending.values()];
      this.pending = new Map();
      this.scheduled = false;
      return taken.batch;
    };
    let counted: (Counted | null)[];
    try {
      counted = await this.inTransaction(() => {
        this.beforeCounting();
        return take().map((entry) => this.addCalls(entry.subject, entry.month, entry.waiters.length));
      });
    } catch (error) {
      // The transaction may have failed before the work ran: its calls are still pending then.
      for (const entry of taken.batch ?? take()) for (const waiter of entry.waiters) waiter.reject(error);
      return;
    }
    taken.batch!.forEach((entry, i) => {
      const result = counted[i]!;
      if (result === null) {
        for (const waiter of entry.waiters) waiter.resolve(null);
        return;
      }
      const first = result.calls - entry.waiters.length + 1;
      for (const [n, waiter] of entry.waiters.entries()) waiter.resolve({ ...result, calls: first + n });
    });
  }
}

interface Entry<Counted> {
  subject: string;
  month: string;
  waiters: Waiter<Counted>[];
}

interface Waiter<Counted> {
  resolve: (counted: Counted | null) => void;
  reject: (error: unknown) => void;
}
