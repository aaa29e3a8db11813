import { NETWORK_RULES } from "../../contract/networks.ts";
import type { DueWork } from "../../scheduler/due-timer.ts";
import { accountEvent } from "../account-event.ts";
import type { ServiceDeps } from "../context.ts";
import { EXPIRING_AHEAD_MS } from "./grant.ts";

const BATCH = 100;

/**
 * The sweep of grants we cannot refresh (Meta's 60-day tokens, LinkedIn member tokens): each live
 * account whose grant ends within 7 days turns `expiring`, and one whose grant has ended turns
 * `reauth_required` with account.disconnected, whether or not anything touches the account. Its timer
 * is set for the next account to cross a threshold (store.nextGrantChangeAt), so nothing polls. The
 * store makes each change conditional on the health it replaces, so instances sweeping one database at
 * once change, and announce, each account once. `expiring` sends no event: the contract has none for
 * it (docs/contract/decisions.md); GET /accounts and the dashboard show it.
 */
export function endingGrantsWork(deps: () => ServiceDeps): DueWork {
  return {
    next: () => deps().store.nextGrantChangeAt(EXPIRING_AHEAD_MS),
    async run(now) {
      const d = deps();
      for (;;) {
        const changed = await d.store.settleEndingGrants(now, EXPIRING_AHEAD_MS, BATCH, (account) =>
          account.health === "reauth_required"
            ? { events: [accountEvent("account.disconnected", account, now)] }
            : {},
        );
        for (const account of changed) {
          d.logger.info(
            { user_id: account.user_id, platform: account.platform, health: account.health },
            account.health === "expiring"
              ? `the ${NETWORK_RULES[account.platform].name} grant of ${account.handle} ends within 7 days: expiring`
              : `the ${NETWORK_RULES[account.platform].name} grant of ${account.handle} has ended: reauth_required`,
          );
        }
        if (changed.length < BATCH) return;
      }
    },
  };
}
