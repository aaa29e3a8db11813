import { burstWithOneKey } from "@socialpub/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  expectCleanOutcomes,
  raceDeletesAgainstScheduler,
} from "../../packages/server/test/support/delete-race.ts";
import { useFigures } from "../support/figures.ts";
import { call, listAllPosts } from "../support/http.ts";
import { type InProcessServer, startInProcessServer } from "../support/in-process-server.ts";
import { perStore, STORE_NAME } from "../support/store.ts";

const figures = useFigures("concurrency");

const targets: InProcessServer[] = [];
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()));
});

async function start(): Promise<InProcessServer> {
  const target = await startInProcessServer({
    service: { rateLimit: false },
    // The client and the server share this process's event loop: on a loaded machine the server's
    // 5-second keep-alive timer could close a connection just as the client sends on it (a reset,
    // no answer), which is not what these checks are about (slow-clients.test.ts checks the timeout).
    timeouts: { keepAliveMs: 60_000 },
  });
  targets.push(target);
  return target;
}

describe(`concurrency over HTTP, ${STORE_NAME} store`, () => {
  it(`bursts of fifty identical keyed POST /posts, ${perStore(20, 8)} keys at once, create exactly one post per key`, async () => {
    const target = await start();
    const { key } = await target.user();
    const KEYS = perStore(20, 8);
    const ids = await Promise.all(
      Array.from({ length: KEYS }, async (_, k) => {
        const body = { caption: `release ${k}`, platforms: ["x", "bluesky"] };
        const headers = { "idempotency-key": `burst-${k}` };
        const answers = await burstWithOneKey(
          50,
          () => call(figures, target.server, key, "POST", "/posts", { body, headers }),
          201,
        );
        return answers.find((res) => res.status === 201)!.body.id as string;
      }),
    );
    const posts = await listAllPosts(figures, target.server, key);
    figures.postsChecked += posts.length;
    expect(posts.map((p) => p.id).sort()).toEqual([...ids].sort());
    expect(new Set(posts.map((p) => p.caption)).size).toBe(KEYS);
  });

  it("DELETE racing the scheduler, many rounds: each post cancelled and never published, or published then removed", async () => {
    const target = await start();
    const { id, key } = await target.user({ accounts: ["x", "bluesky"] });
    const ids = await raceDeletesAgainstScheduler({
      server: target.server,
      apiKey: key,
      rounds: perStore(8, 4),
      postsPerRound: 24,
    });
    figures.requests += ids.length * 2;
    figures.faults += ids.length;
    await target.server.close();
    await expectCleanOutcomes(target.store, id, ids);
    figures.postsChecked += ids.length;
  });

  it("usage counters stay exact: five users sending two hundred requests each at once get exactly two hundred more each", async () => {
    const target = await start();
    const users = await Promise.all(Array.from({ length: 5 }, () => target.user()));
    const before = await Promise.all(
      users.map(
        async (u) =>
          (await call(figures, target.server, u.key, "GET", "/me")).body.usage.api_calls_this_month,
      ),
    );
    await Promise.all(
      users.flatMap((u) =>
        Array.from({ length: 200 }, (_, i) =>
          i % 2 === 0
            ? call(figures, target.server, u.key, "GET", "/posts")
            : call(figures, target.server, u.key, "POST", "/posts", {
                body: { caption: `counted ${i}`, platforms: ["x"], draft: true },
              }),
        ),
      ),
    );
    for (const [i, u] of users.entries()) {
      const after = (await call(figures, target.server, u.key, "GET", "/me")).body.usage.api_calls_this_month;
      expect(after).toBe(before[i] + 200 + 1);
      expect((await listAllPosts(figures, target.server, u.key)).length).toBe(100);
    }
  });

  it("plan limits stay exact: sixty concurrent posts on the free plan create thirty", async () => {
    const target = await start();
    const { key } = await target.user({ plan: "free", accounts: ["x"] });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(figures, target.server, key, "POST", "/posts", {
          body: { caption: `free ${i}`, platforms: ["x"] },
        }),
      ),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(30);
    expect(answers.filter((res) => res.status === 400)).toHaveLength(30);
    const posts = await listAllPosts(figures, target.server, key);
    figures.postsChecked += posts.length;
    expect(posts).toHaveLength(30);
  });
});
