/**
 * Keeps this instance's claims of posts alive while it is still working on them.
 *
 * A claimed post is leased (posts.lease_until): should its instance die, another claims it once the
 * lease runs out, marks its attempts in flight of unknown outcome and checks them with the network.
 * A lease set once, at the claim or at the start of the attempts, also runs out on an instance that
 * is alive but slow (a network taking its time to answer, a machine under heavy load), and the taker
 * would then make attempts the first instance is still making: duplicate posts and events. So while
 * an attempt of a held post is in flight, its lease is renewed every third of a lease, and a live
 * instance keeps its claim; a killed one stops renewing and its claims run out within one lease.
 *
 * Which claim is this instance's is told by the lease's own value, with no column of its own: the
 * keeper remembers the lease_until it wrote, and renews only a row that still holds that value. A
 * taker writes its own lease, so a post taken over (this instance stalled past its lease) is never
 * renewed from here again, and is dropped.
 */

/** A post this instance holds: the lease it last wrote, and when it first took it. */
export interface HeldLease {
  id: string;
  lease: number;
  since: number;
}

/**
 * Renews, in one statement, those of `held` whose row still carries the lease written here and that
 * are still being worked on, to `until`; answers the ids renewed.
 */
export type RenewLeases = (held: readonly HeldLease[], until: number, now: number) => Promise<string[]>;

export class LeaseKeeper {
  private readonly held = new Map<string, HeldLease>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private renewing = false;
  private readonly leaseMs: number;
  private readonly renew: RenewLeases;

  constructor(leaseMs: number, renew: RenewLeases) {
    this.leaseMs = leaseMs;
    this.renew = renew;
  }

  /** This instance wrote `lease` on the post's row (a claim, a publish now, the start of attempts). */
  hold(id: string, lease: number): void {
    const since = this.held.get(id)?.since ?? Date.now();
    this.held.set(id, { id, lease, since });
    // A third of a lease: two renewals may fail or come late before the claim runs out.
    this.timer ??= setInterval(() => void this.tick(), Math.max(100, Math.floor(this.leaseMs / 3)));
    // The renewals must not keep a process alive that has nothing else to do.
    this.timer.unref?.();
  }

  /** The post is no longer leased here (published, failed, back to scheduled). */
  release(id: string): void {
    this.held.delete(id);
    if (this.held.size === 0) this.stop();
  }

  /** Lets go of the post unless it is held with exactly `lease` (the row may carry another's lease). */
  releaseUnless(id: string, lease: number | null): void {
    if (lease === null || this.held.get(id)?.lease !== lease) this.release(id);
  }

  /** How many posts are held (for tests and diagnostics). */
  get size(): number {
    return this.held.size;
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    // A renewal slower than the interval (a loaded database) is not stacked on.
    if (this.renewing || this.held.size === 0) return;
    this.renewing = true;
    const snapshot = [...this.held.values()];
    const now = Date.now();
    const until = now + this.leaseMs;
    try {
      const renewed = new Set(await this.renew(snapshot, until, now));
      for (const h of snapshot) {
        // Unless the post was held anew meanwhile (its lease written again here), the answer stands.
        if (this.held.get(h.id)?.lease !== h.lease) continue;
        if (renewed.has(h.id)) this.held.set(h.id, { ...h, lease: until });
        else this.release(h.id);
      }
    } catch {
      // The database is away: the next tick tries again; until the lease runs out the claim stands.
    } finally {
      this.renewing = false;
    }
  }
}
