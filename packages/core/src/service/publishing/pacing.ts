import { NETWORK_RULES, type NetworkId } from "../../contract/networks.ts";
import type { PacingRule } from "../../networks/adapter.ts";
import type { KeyMode, Store } from "../../store/types.ts";

/**
 * When an account may next start an attempt under its network's pacing rules (at most `count` in any
 * `windowMs`), given the attempts already started; `now` when it may go at once. `ownAttemptAt` is this
 * target's own attempt, already counted in the store: only attempts started before it count, so two
 * posts that started together cannot hold each other back for ever.
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
  const times = await store.recentAttemptTimes(userId, mode, platform, now - widest + 1);
  if (ownAttemptAt !== null) {
    const own = times.indexOf(ownAttemptAt);
    if (own >= 0) times.splice(own);
  }
  let until = now;
  for (const rule of rules) {
    const inWindow = times.filter((t) => t > now - rule.windowMs);
    if (inWindow.length < rule.count) continue;
    until = Math.max(until, inWindow[inWindow.length - rule.count]! + rule.windowMs);
  }
  return until;
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
