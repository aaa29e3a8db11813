import { NETWORK_IDS } from "../../contract/networks.ts";
import type { RequestContext } from "../context.ts";
import { json } from "../responses.ts";
import { toAccount } from "../serialize.ts";

/** GET /accounts: connected accounts only, in the contract's network order. */
export async function listAccounts({ deps, caller }: RequestContext): Promise<Response> {
  const accounts = await deps.store.listAccounts(caller.user.id, caller.key.mode);
  accounts.sort((a, b) => NETWORK_IDS.indexOf(a.platform) - NETWORK_IDS.indexOf(b.platform));
  return json(200, { data: accounts.map(toAccount) });
}
