import { NETWORK_IDS, type NetworkId } from "../../contract/networks.ts";
import type { Analytics } from "../../contract/resources.ts";
import type { KeyMode, Store } from "../../store/types.ts";
import type { RequestContext } from "../context.ts";
import { json } from "../responses.ts";
import { engagementRate, interactionsOf } from "../serialize.ts";

/**
 * GET /analytics: totals over the networks that published the user's published posts, only as
 * reported (nothing estimated), and one row per network that is connected or has published.
 */
export async function getAnalytics({ deps, caller }: RequestContext): Promise<Response> {
  return json(200, await computeAnalytics(deps.store, caller.user.id, caller.key.mode));
}

/**
 * The analytics summary of a user, from what networks have reported. The store sums the targets per
 * network, so a call reads one row per network, not one per published target.
 */
export async function computeAnalytics(
  store: Store,
  userId: string,
  mode: KeyMode = "test",
): Promise<Analytics> {
  const [sums, accounts, postsPublished] = await Promise.all([
    store.sumPublishedMetricsByPlatform(userId),
    // Followers are those of the accounts the key's mode publishes to.
    store.listAccounts(userId, mode),
    store.countPublishedPosts(userId),
  ]);
  const per = new Map<NetworkId, { reach: number; interactions: number }>();
  for (const a of accounts) per.set(a.platform, { reach: 0, interactions: 0 });
  let totalReach = 0;
  let totalInteractions = 0;
  for (const sum of sums) {
    per.set(sum.platform, { reach: sum.reach, interactions: interactionsOf(sum) });
    totalReach += sum.reach;
    totalInteractions += interactionsOf(sum);
  }
  return {
    totalReach,
    engagementRate: engagementRate(totalInteractions, totalReach),
    postsPublished,
    followers: accounts.reduce((sum, a) => sum + a.followers, 0),
    perPlatform: NETWORK_IDS.filter((id) => per.has(id)).map((platform) => {
      const row = per.get(platform)!;
      return { platform, reach: row.reach, engagementRate: engagementRate(row.interactions, row.reach) };
    }),
  };
}
