// The networks direct mode posts to. Those in DIRECT_DEFINITIONS, each with its description and
// `create`, are the ones whose accounts connect with pasted credentials (no app of ours, so no app
// review): the in-job service connects and posts to them. Named one by one, through each network's own
// entry rather than the package's index or its list of descriptions, so the bundle holds these
// networks' code and no other's: a change to another network never makes the committed dist/ stale. A
// test checks that this list holds exactly the networks whose descriptions connect with credentials, so
// a new one is not forgotten here.
//
// X is a path of its own: in the service an X account connects with OAuth 2 (X's own page, an app of
// the service's), so its description connects with no credentials and the in-job service cannot connect
// it. Direct mode posts to X with the four OAuth 1.0a user-context credentials of the user's own app
// (X_OAUTH1_FIELDS) through publishXDirect (x-direct.ts), outside the in-job service.
import { blueskyNetwork } from "@socialpub/networks/bluesky";
import { discordNetwork } from "@socialpub/networks/discord";
import { telegramNetwork } from "@socialpub/networks/telegram";
import { X_OAUTH1_FIELDS } from "@socialpub/networks/x";

/** The networks the in-job service posts to, in the contract's order. */
export const DIRECT_DEFINITIONS = [blueskyNetwork, discordNetwork, telegramNetwork] as const;

/** X in direct mode: its inputs are the four OAuth 1.0a credentials, posted with outside the service. */
export const X_DIRECT = { id: "x", fields: X_OAUTH1_FIELDS } as const;
