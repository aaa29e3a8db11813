import { afterEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../src/logger.ts";
import { createService } from "../../src/service/create-service.ts";
import { MemoryStore } from "../../src/store/memory.ts";
import type { ApiUser } from "../../src/testing/service/harness.ts";
import { connectedUser, type LiveService, liveService } from "./helpers/live-service.ts";
import { ScriptedAdapter } from "./helpers/scripted-adapter.ts";

/*
 * How many scheduled posts an instance publishes at once is a setting (publishing.concurrency; the
 * server's --publish-concurrency): a burst of due posts waits on the networks, so this bounds how fast
 * it goes out.
 */

let live: LiveService | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

describe("publishing.concurrency", () => {
  it("bounds the scheduled posts published at once across users, and every post still goes out once", async () => {
    let inFlight = 0;
    let most = 0;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const service = await liveService((clock) => [new ScriptedAdapter("telegram", clock)], {
      publishing: { concurrency: 3 },
    });
    live = service;
    const [adapter] = service.adapters;
    // Six users (a live user's posts go one after the other), one post each, all due at one instant.
    const users: ApiUser[] = [service.user];
    for (let i = 1; i < 6; i++) {
      const key = `sp_live_${String(i).repeat(64)}`;
      users.push(await connectedUser({ ...service, fetch: service.service.fetch }, key, [adapter!]));
    }
    for (let i = 0; i < 6; i++) {
      adapter!.script.push(async (post) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await released;
        inFlight -= 1;
        return adapter!.posted(post.key);
      });
    }
    const dueAt = service.clock.now() + 60_000;
    for (const user of users) {
      const res = await user.post("/posts", {
        caption: "On the hour",
        platforms: ["telegram"],
        schedule_at: dueAt,
      });
      expect(res.status).toBe(201);
    }

    const running = service.clock.advance(60_000);
    await vi.waitFor(() => expect(inFlight).toBe(3));
    // Long enough for a fourth to start, were one allowed to.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(most).toBe(3);
    release();
    await running;
    await vi.waitFor(async () => {
      const posts = await Promise.all(users.map((u) => u.get("/posts")));
      expect(posts.flatMap((res) => res.body.data.map((p: { status: string }) => p.status))).toEqual(
        Array(6).fill("published"),
      );
    });
    expect(adapter!.publishes).toHaveLength(6);
    expect(most).toBe(3);
  });

  it("refuses a concurrency that is not a whole number of at least 1, saying so", () => {
    for (const concurrency of [0, -1, 2.5, Number.NaN]) {
      expect(() =>
        createService({ store: new MemoryStore(), logger: silentLogger, publishing: { concurrency } }),
      ).toThrow(/publishing\.concurrency must be a whole number of publishes at once, at least 1/);
    }
  });
});
