import { NETWORK_RULES, type NetworkId } from "../contract/networks.ts";
import type { PacingRule } from "../networks/adapter.ts";
import type { ServiceDeps } from "../service/context.ts";
import { badRequest } from "../service/http-error.ts";
import type { KeyMode, Store } from "../store/types.ts";

/**
 * When an account may next send a request under its network's pacing rules (at most `count` in any
 * `windowMs`, as the network counts them: by when each reached it), given its attempts; `now` when it
 * may go at once. An attempt asks right before its request goes out (attemptTarget), so a wait between
 * its start and its request (media to fetch, a machine short of CPU) cannot bring two requests closer
 * than the rules allow.
 *
 * A network receives a request no later than it answers it: an attempt done counts from when it ended
 * (its attempted_at once its outcome is written), and one still in flight counts as `now`, since it may
 * reach the network at any moment. `ownAttemptAt` is this attempt's own start (in flight, already in
 * the store): it does not count, nor do attempts in flight that started after it (each of those counts
 * this one in its own check), so two attempts under way together cannot hold each other back for ever.
 */
export async function pacedUntil(
  store: Store,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  rules: readonly PacingRule[],
  now: number,
  ownAttemptAt: number | null = null,
): Promise<number> {
  if (rules.length === 0) return now;
  const widest = Math.max(...rules.map((r) => r.windowMs));
  const attempts = await store.recentAttempts(userId, mode, platform, now - widest + 1);
  const times: number[] = [];
  let ownLeftOut = false;
  for (const attempt of attempts) {
    if (!attempt.in_flight) {
      times.push(attempt.at);
      continue;
    }
    if (ownAttemptAt !== null) {
      // Another attempt started in the same millisecond still counts: only one of them is this one.
      if (!ownLeftOut && attempt.at === ownAttemptAt) {
        ownLeftOut = true;
        continue;
      }
      if (attempt.at > ownAttemptAt) continue;
    }
    times.push(now);
  }
  times.sort((a, b) => a - b);
  let until = now;
  for (const rule of rules) {
    const inWindow = times.filter((t) => t > now - rule.windowMs);
    if (inWindow.length < rule.count) continue;
    until = Math.max(until, inWindow[inWindow.length - rule.count]! + rule.windowMs);
  }
  return until;
}

/**
 * A publish-now request beyond a network's pacing is refused (decisions.md: work beyond the limits
 * waits when scheduled, and is refused with 400 saying when it can go when published now), so nothing
 * is stored and nothing waits unseen. Throws a 400 naming each such network and when its account can
 * publish again; returns when every network may go at once.
 *
 * It must run in the same step of the user's queue as the start of the request's attempts
 * (beginAttempts), so two requests cannot both take the last free slot.
 */
export async function refuseBeyondPace(
  deps: Pick<ServiceDeps, "store" | "publishing">,
  userId: string,
  mode: KeyMode,
  platforms: readonly NetworkId[],
  now: number,
): Promise<void> {
  const late: string[] = [];
  for (const platform of platforms) {
    const rules = deps.publishing.adapterFor(mode, platform)?.pacing ?? [];
    if (rules.length === 0) continue;
    const until = await pacedUntil(deps.store, userId, mode, platform, rules, now);
    if (until <= now) continue;
    // Whole seconds, rounded up: a client that waits until the time said is never early.
    const at = Math.ceil(until / 1000) * 1000;
    late.push(
      `${describePacing(platform, rules)} and this account has used that: ${NETWORK_RULES[platform].name} can publish again at ${new Date(at).toISOString()} (in ${howLong(at - now)})`,
    );
  }
  if (late.length === 0) return;
  throw badRequest(
    `${late.join("; ")}. Publish it then, or schedule it for then or later (schedule_at); a scheduled post waits for its slot.`,
  );
}

/** "Telegram allows 1 post per second per account" */
export function describePacing(platform: NetworkId, rules: readonly PacingRule[]): string {
  const parts = rules.map((r) => `${r.count} post${r.count === 1 ? "" : "s"} per ${duration(r.windowMs)}`);
  return `${NETWORK_RULES[platform].name} allows ${parts.join(" and ")} for one account`;
}

function duration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
    [1000, "second"],
  ];
  for (const [size, unit] of units) {
    if (ms % size === 0) return ms === size ? unit : `${ms / size} ${unit}s`;
  }
  return `${ms} ms`;
}

/** "45 s", "12 min", "3 h", "2 days": a wait, rounded up, in a unit that keeps the number small. */
function howLong(ms: number): string {
  if (ms <= 120_000) return `${Math.ceil(ms / 1000)} s`;
  if (ms <= 7_200_000) return `${Math.ceil(ms / 60_000)} min`;
  if (ms <= 172_800_000) return `${Math.ceil(ms / 3_600_000)} h`;
  return `${Math.ceil(ms / 86_400_000)} days`;
}
