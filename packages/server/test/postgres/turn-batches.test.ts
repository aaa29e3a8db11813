import type { AccountRecord, KeyMode, NetworkId } from "@socialpub/core";
import { storeFixture } from "@socialpub/core/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PostgresCore } from "../../src/store/postgres/core.ts";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { TurnBatches } from "../../src/store/postgres/turn-batches.ts";
import { emptyDatabase, newDatabase } from "./support/databases.ts";

// The reads a live post makes before its request goes out (its account, its pacing) are sent as one
// statement for all the calls of a turn (turn-batches.ts): each caller gets what its own statement
// would have answered.

const T0 = Date.UTC(2026, 5, 15, 9, 0, 0);
let url: string;
let store: PostgresStore;
let core: PostgresCore;
/** Batches over `core` that count the statements they send. */
let batches: TurnBatches;
let statements = 0;

beforeAll(async () => {
  url = await newDatabase("batches");
  store = await openPostgresStore(url, { poolSize: 4 });
  core = await PostgresCore.open({ url, poolSize: 2 });
  const counting = Object.create(core) as PostgresCore;
  counting.rows = (query) => {
    statements += 1;
    return core.rows(query);
  };
  batches = new TurnBatches(counting);
});
afterAll(async () => {
  await core.close();
  await store.close();
});
beforeEach(async () => {
  await emptyDatabase(url);
  statements = 0;
});

/** Users, posts and targets as the store conformance suite makes them. */
const records = storeFixture(() => store);
const user = async (): Promise<string> => (await records.user()).id;

function account(userId: string, mode: KeyMode, platform: NetworkId): AccountRecord {
  return {
    user_id: userId,
    mode,
    platform,
    handle: `@${platform}-${userId.slice(-4)}`,
    followers: 7,
    health: "healthy",
    connected_at: T0,
    credentials: mode === "live" ? "sealed" : null,
  };
}

/** A live post of `userId` whose target on `platform` was attempted at `at` (in flight or done). */
async function attempted(userId: string, platform: NetworkId, at: number, inFlight: boolean): Promise<void> {
  const post = records.post(userId, { mode: "live", status: "publishing", platforms: [platform] });
  await store.insertPost(post, [
    records.target(post.id, platform, { attempts: 1, attempted_at: at, in_flight: inFlight }),
  ]);
}

describe("PostgreSQL: the reads of a turn as one statement", () => {
  it("answers each account read made in one turn with its own account, or null, in one statement", async () => {
    const [a, b] = [await user(), await user()];
    const stored = [
      account(a, "live", "discord"),
      account(a, "live", "telegram"),
      account(b, "live", "discord"),
    ];
    for (const record of stored) await store.putAccount(record);
    await store.putAccount(account(a, "test", "discord"));

    const asked = [
      { userId: a, mode: "live", platform: "discord" },
      { userId: b, mode: "live", platform: "telegram" }, // none
      { userId: a, mode: "live", platform: "telegram" },
      { userId: b, mode: "live", platform: "discord" },
      { userId: a, mode: "live", platform: "discord" }, // asked twice
      { userId: b, mode: "test", platform: "discord" }, // none in that mode
    ] as const;
    const answers = await Promise.all(asked.map((q) => batches.account.load(q)));
    expect(answers).toEqual([stored[0], null, stored[1], stored[2], stored[0], null]);
    expect(statements).toBe(1);
  });

  it("sends at most 100 reads in one statement", async () => {
    const a = await user();
    await store.putAccount(account(a, "live", "discord"));
    const answers = await Promise.all(
      Array.from({ length: 150 }, () =>
        batches.account.load({ userId: a, mode: "live", platform: "discord" }),
      ),
    );
    expect(answers.every((answer) => answer?.user_id === a)).toBe(true);
    expect(statements).toBe(2);
  });

  it("answers each pacing read with its own account's attempts on its network since its time, oldest first", async () => {
    const [a, b] = [await user(), await user()];
    await attempted(a, "discord", T0 + 2_000, true);
    await attempted(a, "discord", T0 + 1_000, false);
    await attempted(a, "discord", T0 - 60_000, false);
    await attempted(a, "telegram", T0 + 1_500, false);
    await attempted(b, "discord", T0 + 1_200, false);

    const asked = [
      { userId: a, mode: "live", platform: "discord", since: T0 },
      { userId: a, mode: "live", platform: "discord", since: T0 + 1_500 },
      { userId: a, mode: "live", platform: "telegram", since: T0 },
      { userId: b, mode: "live", platform: "discord", since: T0 },
      { userId: b, mode: "test", platform: "discord", since: T0 },
      { userId: a, mode: "live", platform: "x", since: T0 },
    ] as const;
    const answers = await Promise.all(asked.map((q) => batches.recentAttempts.load(q)));
    expect(answers).toEqual([
      [
        { at: T0 + 1_000, in_flight: false },
        { at: T0 + 2_000, in_flight: true },
      ],
      [{ at: T0 + 2_000, in_flight: true }],
      [{ at: T0 + 1_500, in_flight: false }],
      [{ at: T0 + 1_200, in_flight: false }],
      [],
      [],
    ]);
    expect(statements).toBe(1);
    // The store answers the same through its own batches.
    expect(await store.recentAttempts(a, "live", "discord", T0)).toEqual(answers[0]);
  });

  it("starts the attempts of many posts in one statement; a post named twice in a turn is started once", async () => {
    const a = await user();
    await attempted(a, "discord", T0, false);
    const posts = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const post = records.post(a, {
          mode: "live",
          status: "publishing",
          platforms: ["discord", "telegram"],
        });
        await store.insertPost(post, [
          records.target(post.id, "discord"),
          records.target(post.id, "telegram"),
        ]);
        return post;
      }),
    );
    statements = 0;
    const [first, ...rest] = posts;
    const answers = await Promise.all([
      batches.startAttempts.load({ postId: first!.id, platforms: null, now: T0 + 10 }),
      batches.startAttempts.load({ postId: first!.id, platforms: null, now: T0 + 10 }),
      ...rest.map((p) => batches.startAttempts.load({ postId: p.id, platforms: ["telegram"], now: T0 + 10 })),
    ]);
    // The post named twice: the first call started both its networks, the second found them under way.
    expect(answers[0]!.started.map((t) => [t.platform, t.in_flight, t.attempts])).toEqual([
      ["discord", true, 1],
      ["telegram", true, 1],
    ]);
    expect(answers[1]!.started).toEqual([]);
    expect(answers[1]!.targets.map((t) => t.in_flight)).toEqual([true, true]);
    // The others: only the network named, stamped with the call's time.
    for (const [i, p] of rest.entries()) {
      const { started, targets } = answers[i + 2]!;
      expect(started.map((t) => [t.post_id, t.platform, t.attempted_at])).toEqual([
        [p.id, "telegram", T0 + 10],
      ]);
      expect(targets).toEqual(started);
    }
    // One statement for all, and a second for the post named again.
    expect(statements).toBe(2);
    expect((await store.getTargets(rest[0]!.id)).map((t) => t.in_flight)).toEqual([false, true]);
  });

  it("a read made after a write sees it", async () => {
    const a = await user();
    expect(await batches.account.load({ userId: a, mode: "live", platform: "discord" })).toBeNull();
    await store.putAccount(account(a, "live", "discord"));
    expect(await batches.account.load({ userId: a, mode: "live", platform: "discord" })).toEqual(
      account(a, "live", "discord"),
    );
  });
});
