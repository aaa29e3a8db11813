import type { DueTimer, DueWork } from "../scheduler/due-timer.ts";
import type { ServiceDeps } from "../service/context.ts";

/**
 * Recovers attempts a running server left in flight. An attempt's outcome exists only in memory until
 * it is written; when that write fails (twice, for a publish-now) the target stays marked in flight,
 * and apart from this only the next start picks up a target in flight. Each such
 * failure owes a sweep once the attempt's lease has run out; the sweep then treats every attempt
 * started that long ago as a crash would be treated (store.releaseInterruptedTargets): its outcome is
 * unknown, so the retry worker first asks the network whether the post is there (findPublished) and
 * otherwise fails the target as "outcome unknown", never sending it again.
 *
 * The lease is far longer than an attempt may last (its time limit aborts it, so nothing is sent after
 * that), so an attempt that old is over everywhere, also on another instance sharing the store.
 * The timer is armed only while a sweep is owed, so an idle service holds no timer for it. On a shared
 * store another instance may die in the middle of a retry (a retry has no post lease to hand it over),
 * which only a sweep recovers while this instance runs: there a sweep is also owed when the oldest
 * attempt in flight outlives its lease (read at start and after every sweep), and when another instance
 * says it started a retry (the store's wake-up, `watch`).
 */
export class InFlightSweep implements DueWork {
  private readonly owed: number[] = [];
  private readonly deps: () => ServiceDeps;
  private timer: Pick<DueTimer, "notify"> | null = null;

  constructor(deps: () => ServiceDeps) {
    this.deps = deps;
  }

  /** The timer that runs this work. */
  attach(timer: Pick<DueTimer, "notify">): void {
    this.timer = timer;
  }

  /** An attempt's outcome could not be written at `now`: sweep once its lease has run out. */
  leftInFlight(now: number): void {
    const at = now + this.deps().publishing.options.attemptLeaseMs;
    this.owed.push(at);
    this.timer?.notify(at);
  }

  /** Another instance sharing the store started an attempt at `startedAt`: sweep once its lease is over. */
  watch(startedAt: number): void {
    const at = startedAt + this.deps().publishing.options.attemptLeaseMs;
    this.owed.push(at);
    this.timer?.notify(at);
  }

  async next(): Promise<number | null> {
    const owed = this.owed.length === 0 ? null : Math.min(...this.owed);
    const d = this.deps();
    if (!d.store.shared) return owed;
    const oldest = await d.store.oldestAttemptInFlight();
    if (oldest === null) return owed;
    const others = oldest + d.publishing.options.attemptLeaseMs;
    return owed === null ? others : Math.min(owed, others);
  }

  async run(now: number): Promise<void> {
    const d = this.deps();
    const leaseMs = d.publishing.options.attemptLeaseMs;
    // Attempts that started at least a lease ago: none of them can still be running.
    const released = await d.store.releaseInterruptedTargets(now - leaseMs + 1, now);
    for (let i = this.owed.length - 1; i >= 0; i--) if (this.owed[i]! <= now) this.owed.splice(i, 1);
    if (released === 0) return;
    d.logger.info(
      { released },
      "attempts left in flight by a failed write: checking with the networks before any resend",
    );
    d.publishing.retries.notify(now);
  }
}
