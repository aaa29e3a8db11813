/**
 * How many due targets a store reads for each one a claim may take (claimDueTargets): enough to fill a
 * claim of one per account when a few accounts have many due, without reading every due target.
 */
export const CLAIM_LOOKAHEAD = 8;

/** The account a target is published with, as pacing counts it: its post's user and mode, and its network. */
export function accountKey(userId: string, mode: string, platform: string): string {
  return `${userId}:${mode}:${platform}`;
}

/**
 * The first `limit` of `due` (earliest due first) with at most one per account: the earliest of each.
 * The others wait for a later claim (see claimDueTargets).
 */
export function onePerAccount<T>(due: readonly T[], limit: number, accountOf: (item: T) => string): T[] {
  const accounts = new Set<string>();
  const chosen: T[] = [];
  for (const item of due) {
    if (chosen.length >= limit) break;
    const account = accountOf(item);
    if (accounts.has(account)) continue;
    accounts.add(account);
    chosen.push(item);
  }
  return chosen;
}
