import { defineProject } from "vitest/config";
import { NO_PDS, needsPds } from "../packages/networks/src/bluesky/peer/start-peer.ts";

/*
 * The reliability scenarios whose faults meet publishing (kill -9 during writes, posts due while the
 * server is down) again with a live key: the user's accounts are connected through the networks' local
 * peers (a real Bluesky PDS, the X, LinkedIn, Threads, Telegram and Discord fakes) and every post
 * publishes through the live adapters, so the checks also count each post on its network. SQLite only:
 * the store's part is the same as in the sandbox runs, and the PostgreSQL project covers it there.
 */
export default defineProject({
  test: {
    name: "reliability-live",
    include: ["test/kill-during-writes.test.ts", "test/due-while-down.test.ts"],
    provide: { reliabilityStore: "sqlite", reliabilityKeys: "live" },
    globalSetup: ["./support/figures-setup.ts"],
    testTimeout: 300_000,
    // Every scenario publishes to the Bluesky PDS: without it (outside CI), one line and none runs.
    ...(NO_PDS ? skipAll() : {}),
    hookTimeout: 60_000,
  },
});

function skipAll(): { testNamePattern: RegExp } {
  console.warn(needsPds("reliability-live: every test"));
  // A pattern no test name matches: every test is skipped, and no file's hooks run.
  return { testNamePattern: /^(?!)/ };
}
