import { NETWORK_IDS } from "../../contract/networks.ts";
import { refreshStaleFollowers } from "../../publishing/follower-refresh.ts";
import type { RequestContext } from "../context.ts";
import { json } from "../responses.ts";
import { toAccount } from "../serialize.ts";

/**
 * GET /accounts: connected accounts only, in the contract's network order. Live accounts whose
 * followers were read more than 6 hours ago are read again in the background.
 */
export async function listAccounts({ deps, caller }: RequestContext): Promise<Response> {
  const accounts = await deps.store.listAccounts(caller.user.id, caller.key.mode);
  accounts.sort((a, b) => NETWORK_IDS.indexOf(a.platform) - NETWORK_IDS.indexOf(b.platform));
  const answer = json(200, { data: accounts.map(toAccount) });
  // After the answer is made: the listing never waits for a network (follower-refresh.ts).
  refreshStaleFollowers(deps, accounts);
  return answer;
}
