import { monthKey } from "../../time/month.ts";
import type { RequestContext } from "../context.ts";
import { json } from "../responses.ts";
import { toCurrentUser } from "../serialize.ts";

/** GET /me: the user, the plan's limits and this month's usage (this request included). */
export async function getMe({ deps, caller }: RequestContext): Promise<Response> {
  const used = await deps.store.getApiCalls(caller.user.id, monthKey(deps.clock.now()));
  return json(200, toCurrentUser(caller.user, used));
}
