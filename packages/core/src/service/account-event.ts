import { newId } from "../ids.ts";
import type { AccountRecord, NewEvent } from "../store/types.ts";

/** account.connected or account.disconnected for the account as it now stands. */
export function accountEvent(
  type: "account.connected" | "account.disconnected",
  account: AccountRecord,
  now: number,
): NewEvent {
  return {
    id: newId("evt", now),
    user_id: account.user_id,
    type,
    created: Math.floor(now / 1000),
    data: { platform: account.platform, handle: account.handle, health: account.health },
  };
}
