// The Bluesky adapter as the service holds it: its identity and limits at once, its work (atproto-adapter.ts)
// loaded when a Bluesky account is first connected or published to. That work goes through @atproto/api,
// whose lexicons hold about 43 MB of a server's memory (docs/performance.md): a server whose users never
// use Bluesky with a live key — a sandbox for testing integrations — never loads it.

import type { NetworkAdapter } from "@socialpub/core";
import { NETWORK_RULES } from "@socialpub/core";
import type { Fetch } from "./client.ts";
import { BLUESKY_PACING } from "./describe.ts";
import { MAX_MEDIA_BYTES } from "./embed.ts";

export { BLUESKY_PACING } from "./describe.ts";

export const DEFAULT_SERVICE = "https://bsky.social";

export interface BlueskyAdapterOptions {
  /** The PDS a connect without `service` logs in to. Default https://bsky.social. */
  defaultService?: string;
  /** How long one request to the PDS may take; default 15 s. */
  timeoutMs?: number;
  /** The fetch used for every request (tests wrap it to count or lose requests). */
  fetch?: Fetch;
  /** The clock that decides when a session is due for a refresh. */
  now?: () => number;
}

export function permalinkOf(handle: string, rkey: string): string {
  return `https://bsky.app/profile/${handle}/post/${rkey}`;
}

export function blueskyAdapter(options: BlueskyAdapterOptions = {}): NetworkAdapter {
  let loading: Promise<NetworkAdapter> | undefined;
  const work = () => {
    // A bundle (the GitHub Action's) makes the module a chunk of its own, read only here.
    loading ??= import("./atproto-adapter.ts").then((module) => module.atprotoAdapter(options));
    return loading;
  };
  return {
    id: "bluesky",
    rule: NETWORK_RULES.bluesky,
    pacing: BLUESKY_PACING,
    maxMediaBytes: MAX_MEDIA_BYTES,
    connect: async (fields, context) => (await work()).connect(fields, context),
    publish: async (account, post) => (await work()).publish(account, post),
    findPublished: async (account, lost, signal) => (await work()).findPublished!(account, lost, signal),
    readFollowers: async (account, signal) => (await work()).readFollowers!(account, signal),
    readMetrics: async (account, post, signal) => (await work()).readMetrics!(account, post, signal),
  };
}
