import { randomBytes } from "node:crypto";
import { CredentialKeyring, type NetworkId, type Store } from "@socialpub/core";
import { type ApiUser, FakeClock, type ServiceTarget } from "@socialpub/core/testing";
import { networkAdapters, networkSettingsFromEnv } from "../../src/live/network-adapters.ts";
import { createLogger } from "../../src/logging.ts";
import { FileMediaStorage } from "../../src/media/file-media-storage.ts";
import { startServer } from "../../src/server.ts";
import { FrontProxy } from "./front-proxy.ts";
import { forwardTo } from "./http-target.ts";
import { type NetworkPeers, startNetworkPeers } from "./network-peers.ts";

/*
 * The service conformance suite's target in live mode: the real server on port 0, behind the public
 * address the networks redirect to, publishing with live keys through the live adapters to the
 * networks' local peers (network-peers.ts) — a real Bluesky PDS, and the X and LinkedIn fakes. Each
 * user's accounts are connected as a person connects them: an app password for Bluesky, the fakes'
 * consent pages for X and LinkedIn. The peers are started once per file and shared by every test's
 * server.
 */

/** The peers of the networks the suite's tests post to: Bluesky, X and LinkedIn. */
export type ConformancePeers = NetworkPeers;

export function startConformancePeers(): Promise<ConformancePeers> {
  return startNetworkPeers(["bluesky", "x", "linkedin"]);
}

export async function liveHttpTarget(
  store: Store,
  mediaDir: string,
  peers: ConformancePeers,
  onClose: () => void = () => {},
): Promise<ServiceTarget> {
  const clock = new FakeClock();
  const front = await FrontProxy.start();
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    store,
    clock,
    logger: createLogger({ level: "silent" }),
    service: {
      mediaStorage: new FileMediaStorage(mediaDir),
      allowPrivateWebhookUrls: true,
      publicUrl: front.url,
      credentialKeyring: new CredentialKeyring(randomBytes(32)),
      liveAdapters: networkAdapters(networkSettingsFromEnv(peers.env)),
    },
  });
  front.target = new URL(server.url);
  let users = 0;
  async function connect(user: ApiUser, network: NetworkId): Promise<void> {
    // A person of their own on the network for each user: X refuses a duplicate post by one person,
    // and the suite's users post the same captions.
    await peers.connect(network, (body) => user.post("/accounts/connect", body), `conformance_${++users}`);
  }
  return {
    store,
    clock,
    live: { networks: peers.networks, connect },
    fetch: forwardTo(front.url),
    close: async () => {
      await server.close();
      await front.close();
      await store.close();
      onClose();
    },
  };
}
