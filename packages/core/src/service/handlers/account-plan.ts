import { PLANS } from "../../contract/plans.ts";
import type { AccountRecord } from "../../store/types.ts";
import { accountEvent } from "../account-event.ts";
import type { Caller, KeepAnswer, ServiceDeps } from "../context.ts";
import { badRequest } from "../http-error.ts";
import { toAccount } from "../serialize.ts";

/**
 * Stores a connected account, new ones within the plan's profiles (the user's accounts of that mode),
 * with account.connected and the request's kept answer. Counts and writes as one step of the user's
 * queue, so concurrent connects cannot pass the limit together.
 */
export async function putWithinPlan(
  deps: ServiceDeps,
  { user }: Pick<Caller, "user">,
  account: AccountRecord,
  now: number,
  keptAnswer: KeepAnswer,
): Promise<{ existing: AccountRecord | null }> {
  return deps.perUser.run(user.id, async () => {
    const existing = await deps.store.getAccount(user.id, account.mode, account.platform);
    if (!existing) {
      const connected = (await deps.store.listAccounts(user.id, account.mode)).length;
      const allowed = PLANS[user.plan].profiles;
      if (connected >= allowed) {
        throw badRequest(
          `The ${user.plan} plan allows ${allowed} connected profiles and all are in use; disconnect one or upgrade the plan.`,
        );
      }
    }
    const stored = existing ? { ...account, connected_at: existing.connected_at } : account;
    await deps.store.putAccount(stored, {
      events: [accountEvent("account.connected", stored, now)],
      idempotency: keptAnswer(existing ? 200 : 201, toAccount(stored)),
    });
    return { existing };
  });
}
