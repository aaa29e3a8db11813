import { defineProject } from "vitest/config";

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
    hookTimeout: 60_000,
  },
});
