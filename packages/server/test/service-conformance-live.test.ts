import { describeServiceConformance, LIVE_GROUPS } from "@socialpub/core/testing";
import { NO_PDS, needsPds } from "@socialpub/networks/bluesky/peer";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import {
  type ConformancePeers,
  liveHttpTarget,
  startConformancePeers,
} from "./support/live-conformance-target.ts";
import { tempDir } from "./support/temp-dir.ts";

/*
 * The service conformance suite's network-neutral groups with live keys: every user's accounts are
 * connected through the networks' local peers (a real Bluesky PDS; the X and LinkedIn fakes' consent
 * pages) and every post publishes through the live adapters instead of the sandbox.
 */

let peers: ConformancePeers;
beforeAll(async () => {
  peers = await startConformancePeers();
}, 150_000);
afterAll(async () => {
  try {
    // The posts went to the networks, not to the sandbox.
    expect(await peers.count("x")).toBeGreaterThan(0);
    expect(await peers.count("linkedin")).toBeGreaterThan(0);
  } finally {
    await peers?.stop();
  }
});

describe.skipIf(NO_PDS)(needsPds("live keys"), () => {
  describeServiceConformance(
    "SQLite file store over HTTP, live keys to the networks' peers",
    () => {
      const dir = tempDir();
      return liveHttpTarget(openSqliteStore(dir.file("service.db")), dir.file("media"), peers, dir.remove);
    },
    { groups: LIVE_GROUPS, live: true },
  );
});
