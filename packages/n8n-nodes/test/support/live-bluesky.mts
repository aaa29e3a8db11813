import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BlueskyPeer, type PeerAccount, startBlueskyPeer } from "@socialpub/networks/bluesky/peer";
import { withProcessSlot } from "../../../../test-support/process-slots.ts";
import { keysCreateLive, type ReferenceServer, startReferenceServer } from "./reference-server.mts";

export interface LiveBluesky {
  peer: BlueskyPeer;
  account: PeerAccount;
  /** The server, with `apiKey` the dev user's live key (sp_live_…) and its Bluesky account connected. */
  server: ReferenceServer;
  stop(): Promise<void>;
}

/**
 * A real Bluesky PDS on loopback and the reference server set up as a user would for live publishing:
 * started with a secret key and the PDS as its Bluesky service (`--allow-private-urls`, since the PDS is
 * on loopback), a live key made with `keys create --live`, and a PDS account connected with its app
 * password over the API.
 */
export async function startLiveBluesky(): Promise<LiveBluesky> {
  const dir = mkdtempSync(join(tmpdir(), "socialpub-n8n-live-"));
  const db = join(dir, "live.db");
  const env = {
    SOCIALPUB_SECRET_KEY: randomBytes(32).toString("base64"),
    SOCIALPUB_BLUESKY_SERVICE_URL: "",
  };
  let peer: BlueskyPeer | undefined;
  let server: ReferenceServer | undefined;
  const stop = async () => {
    await server?.stop();
    await peer?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // The PDS starts in this process, but costs as much CPU as a child process starting.
    peer = await withProcessSlot(() => startBlueskyPeer());
    env.SOCIALPUB_BLUESKY_SERVICE_URL = peer.url;
    const account = await peer.createAccount("alice");
    server = await startReferenceServer({ db, env, extraArgs: ["--allow-private-urls"] });
    const printed = await withProcessSlot(() => keysCreateLive(db, env));
    const apiKey = /^API key: (sp_live_\S+)$/m.exec(printed)?.[1];
    if (!apiKey) throw new Error(`keys create --live printed no live key:\n${printed}`);
    const connected = await fetch(`${server.baseUrl}/accounts/connect`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        platform: "bluesky",
        handle: account.handle,
        app_password: account.appPassword,
      }),
    });
    if (connected.status !== 201)
      throw new Error(`connecting Bluesky answered ${connected.status}: ${await connected.text()}`);
    return { peer, account, server: { ...server, apiKey }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
