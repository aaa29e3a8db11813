import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SocialPublishClient } from "@socialpub/core";
import { provisionUser } from "@socialpub/core/testing";
import {
  type BlueskyPeer,
  NO_PDS,
  needsPds,
  type PeerAccount,
  startBlueskyPeer,
} from "@socialpub/networks/bluesky/peer";
import { openSqliteStore } from "@socialpub/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withProcessSlot } from "../../../test-support/process-slots.ts";
import { releaseEvent } from "./support/payloads.ts";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.ts";
import { runStep } from "./support/runner.ts";

/*
 * The committed dist/index.js with a live key, unchanged: the server publishes through the real Bluesky
 * adapter to a real local PDS, and the step reports the post's real permalink.
 */

const LIVE_KEY = `sp_live_${"ActionLiveKeyEndToEnd0123456789x".repeat(2)}`;
const dir = mkdtempSync(join(tmpdir(), "action-live-"));
let peer: BlueskyPeer;
let alice: PeerAccount;
let server: ReferenceServer;

beforeAll(async () => {
  peer = await withProcessSlot(() => startBlueskyPeer());
  alice = await peer.createAccount("alice");
  const db = join(dir, "live.db");
  const store = openSqliteStore(db);
  await provisionUser(store, { accounts: [], key: LIVE_KEY, plan: "studio" });
  await store.close();
  server = await startReferenceServer({
    // The PDS listens on loopback, which a live server refuses unless told it is a local test.
    args: ["--db", db, "--allow-private-urls"],
    env: {
      SOCIALPUB_SECRET_KEY: randomBytes(32).toString("base64"),
      SOCIALPUB_BLUESKY_SERVICE_URL: peer.url,
    },
  });
  const connected = await fetch(`${server.baseUrl}/accounts/connect`, {
    method: "POST",
    headers: { authorization: `Bearer ${LIVE_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ platform: "bluesky", handle: alice.handle, app_password: alice.appPassword }),
  });
  expect(connected.status, await connected.clone().text()).toBe(201);
}, 150_000);

afterAll(async () => {
  await server?.stop();
  await peer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(NO_PDS)(needsPds("node dist/index.js with a live key"), () => {
  it("announces the release on the real PDS and reports its permalink", async () => {
    const run = await runStep({
      inputs: { "api-key": LIVE_KEY, "base-url": server.baseUrl, platforms: "bluesky" },
      eventName: "release",
      payload: releaseEvent("published", { id: 4200, tag: "v4.2.0", name: "App 4.2" }),
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ status: "published", platforms: "bluesky" });

    const permalink = new RegExp(`https://bsky\\.app/profile/${alice.handle}/post/([a-z2-7]{13})`);
    const rkey = permalink.exec(run.summary)?.[1];
    expect(rkey, run.summary).toBeDefined();

    // The service agrees, and the PDS holds the record under that key with the caption's text.
    const client = new SocialPublishClient({ apiKey: LIVE_KEY, baseUrl: server.baseUrl });
    try {
      const { data: targets } = await client.posts.targets(run.outputs["post-id"]!);
      expect(targets).toMatchObject([{ platform: "bluesky", status: "published" }]);
      expect(targets[0]!.permalink).toBe(`https://bsky.app/profile/${alice.handle}/post/${rkey}`);
    } finally {
      await client.close();
    }
    const owner = await peer.ownerAgent(alice);
    const record = await owner.com.atproto.repo.getRecord({
      repo: alice.did,
      collection: "app.bsky.feed.post",
      rkey: rkey!,
    });
    const text = (record.data.value as { text: string }).text;
    expect(text).toContain("octo/app App 4.2");
    expect(text).toContain("https://github.com/octo/app/releases/tag/v4.2.0");

    // A live key is shown nowhere but in the mask command the runner consumes.
    const visible = run.stdout.replace(`::add-mask::${LIVE_KEY}`, "");
    expect(visible + run.stderr + run.summary + JSON.stringify(run.outputs)).not.toContain(LIVE_KEY);
  });
});
