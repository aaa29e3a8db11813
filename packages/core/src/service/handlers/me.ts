import type { RequestContext } from "../context.ts";
import { json } from "../responses.ts";
import { toCurrentUser } from "../serialize.ts";

/** GET /me: the user, the plan's limits and this month's usage (this request included). */
export async function getMe({ caller }: RequestContext): Promise<Response> {
  return json(200, toCurrentUser(caller.user, caller.callsThisMonth));
}
