import { randomBytes } from "node:crypto";
import { CredentialKeyring, type NetworkId, type Store } from "@socialpub/core";
import { type ApiUser, FakeClock, type ServiceTarget } from "@socialpub/core/testing";
import { type BlueskyPeer, type PeerAccount, startBlueskyPeer } from "@socialpub/networks/bluesky/peer";
import { LinkedInFake } from "@socialpub/networks/linkedin/fake";
import { XFake } from "@socialpub/networks/x/fake";
import { expect } from "vitest";
import { networkAdapters } from "../../src/live/network-adapters.ts";
import { createLogger } from "../../src/logging.ts";
import { FileMediaStorage } from "../../src/media/file-media-storage.ts";
import { startServer } from "../../src/server.ts";
import { FrontProxy } from "./front-proxy.ts";
import { forwardTo } from "./http-target.ts";
import { appSettings } from "./live-oauth-server.ts";
import { grantInBrowser } from "./oauth-browser.ts";
import { withProcessSlot } from "./process-slots.ts";

/*
 * The service conformance suite's target in live mode: the real server on port 0, behind the public
 * address the networks redirect to, publishing with live keys through the live adapters to the
 * networks' local peers — a real Bluesky PDS, and the X and LinkedIn fakes. Each user's accounts are
 * connected as a person connects them: an app password for Bluesky, the fakes' consent pages for X
 * and LinkedIn. The peers are started once per file and shared by every test's server.
 */

export interface ConformancePeers {
  bluesky: BlueskyPeer;
  blueskyAccount: PeerAccount;
  x: XFake;
  linkedin: LinkedInFake;
  xApp: { clientId: string; clientSecret: string };
  linkedinApp: { clientId: string; clientSecret: string };
  stop(): Promise<void>;
}

export async function startConformancePeers(): Promise<ConformancePeers> {
  const [bluesky, x, linkedin] = await Promise.all([
    withProcessSlot(() => startBlueskyPeer()),
    XFake.start(),
    LinkedInFake.start(),
  ]);
  // The suite publishes hundreds of posts with one app: the networks' per-user windows are not what
  // it checks (each network's own test does).
  x.postsPerWindow = Number.MAX_SAFE_INTEGER;
  linkedin.postsPerDay = Number.MAX_SAFE_INTEGER;
  return {
    bluesky,
    blueskyAccount: await bluesky.createAccount("conformance"),
    x,
    linkedin,
    xApp: x.addApp(),
    linkedinApp: linkedin.addApp(),
    stop: async () => {
      await Promise.all([bluesky.stop(), x.close(), linkedin.close()]);
    },
  };
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
      liveAdapters: networkAdapters({
        xApi: peers.x.url,
        xAuth: `${peers.x.url}/i/oauth2/authorize`,
        xApp: appSettings(peers.xApp),
        linkedinApi: peers.linkedin.url,
        linkedinAuth: peers.linkedin.url,
        linkedinApp: appSettings(peers.linkedinApp),
      }),
    },
  });
  front.target = new URL(server.url);
  let users = 0;
  async function connect(user: ApiUser, network: NetworkId): Promise<void> {
    if (network === "bluesky") {
      const { handle, appPassword } = peers.blueskyAccount;
      const res = await user.post("/accounts/connect", {
        platform: "bluesky",
        handle,
        app_password: appPassword,
        service: peers.bluesky.url,
      });
      expect(res.status, res.text).toBe(201);
      return;
    }
    // A person of their own on the network for each user: X refuses a duplicate post by one person,
    // and the suite's users post the same captions.
    const name = `conformance_${++users}`;
    if (network === "x") peers.x.signIn(peers.x.addUser({ username: name }));
    else peers.linkedin.signIn(peers.linkedin.addMember({ name }));
    const started = await user.post("/accounts/connect", { platform: network });
    expect(started.status, started.text).toBe(201);
    const page = await grantInBrowser(started.body.authorize_url);
    expect(page.status, page.html).toBe(200);
  }
  return {
    store,
    clock,
    live: { networks: ["bluesky", "x", "linkedin"], connect },
    fetch: forwardTo(front.url),
    close: async () => {
      await server.close();
      await front.close();
      await store.close();
      onClose();
    },
  };
}
