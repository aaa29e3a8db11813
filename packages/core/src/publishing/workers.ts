import { NETWORK_RULES } from "../contract/networks.ts";
import type { DueWork } from "../scheduler/due-timer.ts";
import { LanePool } from "../scheduler/lane-pool.ts";
import type { ServiceDeps } from "../service/context.ts";
import { accountKey } from "../store/claim-per-account.ts";
import type { ClaimedTarget } from "../store/types.ts";
import { AccountCredentials } from "./account-credentials.ts";
import { retryClaimedTarget } from "./run-attempts.ts";

const BATCH = 20;

/**
 * Retries: targets whose next attempt is due (a network's retry hint, backoff, pacing, a restart),
 * made `publishing.concurrency` at once as the scheduler's publishes are (they wait on the networks),
 * more claimed as slots free. A claim holds at most one target per account (store.claimDueTargets), so
 * each attempt's pacing check sees the attempts of its account started before it; an account's targets
 * of later claims wait in its lane for the one before them.
 */
export function retryWork(deps: () => ServiceDeps): DueWork {
  return {
    next: () => deps().store.nextTargetAttemptAt(),
    async run() {
      const d = deps();
      const { concurrency } = d.publishing.options;
      const pool = new LanePool<ClaimedTarget>(concurrency, accountOf, async ({ post, target }) => {
        try {
          await retryClaimedTarget(d, post, target);
        } catch (err) {
          // What stays in flight is recovered once its lease runs out (in-flight-sweep.ts).
          d.logger.error(
            { err, post_id: post.id, platform: target.platform },
            "a retry could not be written",
          );
        }
      });
      for (;;) {
        await pool.roomFor(concurrency);
        const claimed = await d.store.claimDueTargets(d.clock.now(), BATCH);
        for (const one of claimed) pool.add(one);
        // One per account: a claim may answer fewer than asked while more are due.
        if (claimed.length === 0) break;
      }
      await pool.idle();
    },
  };
}

/** The account a target is published with: pacing counts attempts per user, mode and network. */
const accountOf = ({ post, target }: ClaimedTarget) => accountKey(post.user_id, post.mode, target.platform);

/**
 * Figures of live posts, read on a decaying schedule after publishing (5 min, 1 h, 6 h, 24 h, 7 days
 * by default) from networks that report them; each figure only ever rises (store.reportMetrics). A
 * read that fails is simply made at the next point of the schedule.
 */
export function metricsWork(deps: () => ServiceDeps): DueWork {
  return {
    next: () => deps().store.nextMetricsReadAt(),
    async run(now) {
      const d = deps();
      const { metricsScheduleMs, metricsLeaseMs, attemptTimeoutMs } = d.publishing.options;
      for (;;) {
        const claimed = await d.store.claimDueMetricReads(now, now + metricsLeaseMs, BATCH);
        await Promise.all(
          claimed.map(async ({ post, target }) => {
            const reads = target.metrics_reads + 1;
            const nextOffset = metricsScheduleMs[reads];
            const nextAt =
              nextOffset === undefined || target.published_at === null
                ? null
                : target.published_at + nextOffset;
            const adapter = d.publishing.adapterFor(post.mode, target.platform);
            const account = await d.store.getAccount(post.user_id, post.mode, target.platform);
            if (adapter?.readMetrics && account && target.remote_id !== null && target.permalink !== null) {
              let credentials: AccountCredentials | undefined;
              try {
                credentials = new AccountCredentials(d, account, adapter);
                const signal = AbortSignal.any([
                  d.publishing.shutdown,
                  AbortSignal.timeout(attemptTimeoutMs),
                ]);
                const published = { id: target.remote_id, permalink: target.permalink };
                const read = adapter.readMetrics.bind(adapter);
                // An OAuth token is refreshed first when it is about to end, as before a publish.
                const figures = await credentials.use(signal, (session) => read(session, published, signal));
                await d.store.reportMetrics(post.id, target.platform, {
                  reach: figures.reach ?? 0,
                  likes: figures.likes ?? 0,
                  comments: figures.comments ?? 0,
                  shares: figures.shares ?? 0,
                });
              } catch (err) {
                const message = err instanceof Error ? err.message : String(err);
                d.logger.warn(
                  {
                    post_id: post.id,
                    platform: target.platform,
                    error: credentials ? credentials.redact(message) : message,
                  },
                  `reading ${NETWORK_RULES[target.platform].name} figures failed; the next read is on schedule`,
                );
              }
            }
            await d.store.scheduleMetricsRead(post.id, target.platform, nextAt, reads);
          }),
        );
        if (claimed.length < BATCH) return;
      }
    },
  };
}
