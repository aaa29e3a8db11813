// The networks direct mode posts to, each with its description and \`create\`: those whose accounts
// connect with pasted credentials (no app of ours, so no app review). Named one by one, through each
// network's own entry rather than the package's index or its list of descriptions, so the bundle holds
// these networks' code and no other's: a change to another network never makes the committed dist/
// stale. A test checks that this list holds exactly the networks whose descriptions connect with
// credentials, so a new one is not forgotten here.
import { blueskyNetwork } from "@socialpub/networks/bluesky";
import { discordNetwork } from "@socialpub/networks/discord";
import { telegramNetwork } from "@socialpub/networks/telegram";

/** In the contract's order. */
export const DIRECT_DEFINITIONS = [blueskyNetwork, discordNetwork, telegramNetwork] as const;
