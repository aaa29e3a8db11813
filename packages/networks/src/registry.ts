// Every network this package publishes to, in the contract's order: its description and `create`,
// building its adapter from the settings the server read (its SOCIALPUB_<NETWORK>_* variables). A
// consumer that only lists networks imports descriptions.ts instead, which loads no adapter.
import type { NetworkAdapter, NetworkAdapters } from "@socialpub/core";
import { blueskyNetwork } from "./bluesky/index.ts";
import { discordNetwork } from "./discord/index.ts";
import { facebookNetwork } from "./facebook/index.ts";
import { instagramNetwork } from "./instagram/index.ts";
import { linkedinNetwork } from "./linkedin/index.ts";
import { pinterestNetwork } from "./pinterest/index.ts";
import { redditNetwork } from "./reddit/index.ts";
import { telegramNetwork } from "./telegram/index.ts";
import { threadsNetwork } from "./threads/index.ts";
import { tiktokNetwork } from "./tiktok/index.ts";
import { xNetwork } from "./x/index.ts";
import { youtubeNetwork } from "./youtube/index.ts";

export const NETWORKS = [
  tiktokNetwork,
  instagramNetwork,
  youtubeNetwork,
  xNetwork,
  linkedinNetwork,
  facebookNetwork,
  threadsNetwork,
  pinterestNetwork,
  redditNetwork,
  blueskyNetwork,
  discordNetwork,
  telegramNetwork,
] as const;

type Network = (typeof NETWORKS)[number];

/** Each network's settings, as its `create` takes them (the adapter's options). */
export type NetworkSettings = { [N in Network as N["id"]]?: Parameters<N["create"]>[0] };

/** The adapters of every network, each built from its settings (its defaults where none are given). */
export function createAdapters(settings: NetworkSettings = {}): NetworkAdapters {
  const adapters: NetworkAdapters = {};
  for (const network of NETWORKS) {
    const create = network.create as (settings: object) => NetworkAdapter;
    adapters[network.id] = create(settings[network.id] ?? {});
  }
  return adapters;
}
