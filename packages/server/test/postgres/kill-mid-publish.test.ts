import { randomBytes } from "node:crypto";
import { provisionUser } from "@socialpub/core";
import { WebhookReceiver } from "@socialpub/core/testing";
import {
  type BlueskyPeer,
  NO_PDS,
  needsPds,
  type PeerAccount,
  startBlueskyPeer,
} from "@socialpub/networks/bluesky/peer";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { api, type ServerProcess } from "../support/cli-process.ts";
import { HoldingProxy } from "../support/holding-proxy.ts";
import { withProcessSlot } from "../support/process-slots.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newDatabase } from "./support/databases.ts";
import { startPublishingInstances, waitUntil } from "./support/publishing-instances.ts";

/*
 * Three server processes on one PostgreSQL database publish to a real Bluesky PDS with a live key. One
 * of them is killed with SIGKILL in the middle of its attempts: the PDS has made the records, but the
 * answers are held back (a proxy in front of the PDS), so the instance dies not knowing. A survivor
 * takes the posts over once their lease runs out, asks the PDS whether they are there (they are), and
 * records them as published: each post exactly once on the network, once in the store, one
 * post.published event each, delivered at least once.
 */

const INSTANCES = 3;
const LEASE_MS = 4000;
/**
 * Takeover after the lease may take: the survivors' timers fire at the lease's end, then a claim, a
 * look-up at the PDS and a write, on a two-core machine that is busy with other work.
 */
const MARGIN_MS = 15_000;
const POSTS = 3;
const LIVE_KEY = `sp_live_${"KillMidPublishOnPostgres0123456789".repeat(2)}`;
const SECRET_KEY = randomBytes(32).toString("base64");

let db: string;
let sql: postgres.Sql;
let store: PostgresStore;
let peer: BlueskyPeer;
let alice: PeerAccount;
let proxy: HoldingProxy;
let receiver: WebhookReceiver;
const servers: ServerProcess[] = [];
const dir = tempDir();

beforeAll(async () => {
  db = await newDatabase("kill");
  store = await openPostgresStore(db, { poolSize: 2 });
  sql = postgres(db, { max: 2, onnotice: () => {} });
  [peer, receiver] = await Promise.all([withProcessSlot(() => startBlueskyPeer()), WebhookReceiver.start()]);
  proxy = await HoldingProxy.start(peer.url);
  alice = await peer.createAccount("alice");
  await provisionUser(store, { accounts: [], key: LIVE_KEY, plan: "studio" });
  servers.push(
    ...(await startPublishingInstances({
      db,
      count: INSTANCES,
      mediaDir: dir.file("media"),
      leaseMs: LEASE_MS,
      secretKey: SECRET_KEY,
    })),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  await Promise.all([peer?.stop(), receiver?.down(), proxy?.close()]);
  await sql?.end({ timeout: 1 });
  await store?.close();
  dir.remove();
});

describe.skipIf(NO_PDS)(
  needsPds("kill -9 of the instance publishing, three instances on one PostgreSQL database"),
  () => {
    it("a survivor takes its posts over within the lease: each published exactly once, every event delivered", {
      timeout: 240_000,
    }, async () => {
      const [victim, survivor] = servers as [ServerProcess, ServerProcess];
      const connected = await api(survivor, LIVE_KEY, "POST", "/accounts/connect", {
        platform: "bluesky",
        handle: alice.handle,
        app_password: alice.appPassword,
        service: proxy.url,
      });
      expect(connected.status, JSON.stringify(connected.body)).toBe(201);
      const hook = await api(survivor, LIVE_KEY, "POST", "/webhooks", {
        url: receiver.url,
        events: ["post.published"],
      });
      expect(hook.status).toBe(201);

      // The PDS makes each record, but its answer never reaches the victim.
      proxy.holdOnly = /com\.atproto\.repo\.createRecord/;
      proxy.hold = true;
      const cut = Array.from({ length: POSTS }, (_, i) =>
        fetch(`${victim.url}/api/v1/posts`, {
          method: "POST",
          headers: { authorization: `Bearer ${LIVE_KEY}`, "content-type": "application/json" },
          body: JSON.stringify({ caption: `Cut off mid-publish ${i}`, platforms: ["bluesky"] }),
        }).catch(() => null),
      );
      await waitUntil("every attempt sent and its answer held", () => proxy.held.length >= POSTS, 60_000);
      proxy.hold = false;
      const leases = await sql<{ lease_until: number }[]>`
      SELECT lease_until::float8 AS lease_until FROM posts WHERE status = 'publishing'`;
      expect(leases).toHaveLength(POSTS);
      await victim.stop("SIGKILL");
      const killedAt = Date.now();
      await Promise.all(cut);
      const leaseEnds = Math.max(...leases.map((l) => l.lease_until));

      const published = async () =>
        Number((await sql`SELECT count(*) AS n FROM posts WHERE status = 'published'`)[0]!.n);
      await waitUntil(
        "every post published after the kill",
        async () => (await published()) === POSTS,
        120_000,
      );
      const doneAt = Date.now();
      const takeover = doneAt - killedAt;
      const afterLease = doneAt - leaseEnds;
      console.log(
        `kill mid-publish: ${POSTS} posts cut off by kill -9 were published by a survivor ${takeover} ms after the kill, ${afterLease} ms after their lease (${LEASE_MS} ms) ran out`,
      );
      expect(takeover).toBeLessThan(LEASE_MS + MARGIN_MS);

      // Exactly once on the network: one record per post (the record key is the post's own).
      const owner = await peer.ownerAgent(alice);
      const feed = await owner.com.atproto.repo.listRecords({
        repo: alice.did,
        collection: "app.bsky.feed.post",
        limit: 100,
      });
      const texts = feed.data.records.map((r) => (r.value as { text: string }).text).sort();
      expect(texts).toEqual(Array.from({ length: POSTS }, (_, i) => `Cut off mid-publish ${i}`));
      // Exactly once in the store: one published target and one post.published event per post.
      const targets = await sql`SELECT post_id, status, outcome_unknown, attempts FROM targets`;
      expect(targets).toHaveLength(POSTS);
      for (const t of targets) expect(t.status).toBe("published");
      const events = await sql<{ id: string; data: string }[]>`
      SELECT id, data FROM events WHERE type = 'post.published'`;
      expect(events).toHaveLength(POSTS);
      expect(new Set(events.map((e) => (JSON.parse(e.data) as { post_id: string }).post_id)).size).toBe(
        POSTS,
      );
      // Every event reaches the endpoint at least once.
      await waitUntil(
        "every event delivered",
        () => {
          const delivered = new Set(receiver.received.map((r) => String(r.headers["webhook-id"])));
          return events.every((e) => delivered.has(e.id));
        },
        60_000,
      );
    });
  },
);
