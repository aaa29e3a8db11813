import { afterEach, describe, expect, it } from "vitest";
import { type LiveService, liveService, targetsOf } from "./helpers/live-service.ts";
import { ScriptedAdapter } from "./helpers/scripted-adapter.ts";

/*
 * A live post's figures are read from networks that report them on a decaying schedule after it is
 * published — 5 minutes, 1 hour, 6 hours, 24 hours, 7 days — and only ever rise. On a fake clock: no
 * waiting, and the exact time of each read is checked.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
let live: (LiveService & { adapters: ScriptedAdapter[] }) | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

describe("metrics of live posts", () => {
  it("are read 5 min, 1 h, 6 h, 24 h and 7 days after publishing, then never again", async () => {
    live = await liveService((clock) => [new ScriptedAdapter("bluesky", clock)]);
    const { user, clock } = live;
    const [bluesky] = live.adapters as [ScriptedAdapter];
    const post = await user.createPost({ caption: "figures", platforms: ["bluesky"] });
    const publishedAt = clock.now();
    expect(post.status).toBe("published");

    await clock.advance(5 * MIN - 1);
    expect(bluesky.metricReads).toHaveLength(0);
    await clock.advance(1);
    expect(bluesky.metricReads).toHaveLength(1);

    await clock.advance(30 * DAY);
    expect(bluesky.metricReads.map((r) => r.at - publishedAt)).toEqual([
      5 * MIN,
      HOUR,
      6 * HOUR,
      DAY,
      7 * DAY,
    ]);
    expect(new Set(bluesky.metricReads.map((r) => r.id))).toEqual(
      new Set([(await targetsOf(user, post.id)).bluesky.permalink.split("/").pop()]),
    );
  });

  it("only ever raise a figure: a lower count read later leaves it as it was", async () => {
    live = await liveService((clock) => [new ScriptedAdapter("bluesky", clock)]);
    const { user, clock } = live;
    const [bluesky] = live.adapters as [ScriptedAdapter];
    const post = await user.createPost({ caption: "figures", platforms: ["bluesky"] });

    bluesky.figures = { likes: 5, comments: 2, shares: 1 };
    await clock.advance(5 * MIN);
    expect((await targetsOf(user, post.id)).bluesky).toMatchObject({
      likes: 5,
      comments: 2,
      shares: 1,
      reach: 0,
    });

    // An unlike and a deleted reply: the network now says fewer; more shares.
    bluesky.figures = { likes: 3, comments: 1, shares: 4 };
    await clock.advance(HOUR);
    expect((await targetsOf(user, post.id)).bluesky).toMatchObject({
      likes: 5,
      comments: 2,
      shares: 4,
      reach: 0,
    });
    expect((await user.get(`/posts/${post.id}`)).body).toMatchObject({ reach: 0 });
  });

  it("a read that fails is simply made again at the next point of the schedule", async () => {
    live = await liveService((clock) => [new ScriptedAdapter("bluesky", clock)]);
    const { user, clock } = live;
    const [bluesky] = live.adapters as [ScriptedAdapter];
    const post = await user.createPost({ caption: "figures", platforms: ["bluesky"] });
    const publishedAt = clock.now();
    const read = bluesky.readMetrics.bind(bluesky);
    let failures = 1;
    bluesky.readMetrics = async (account, published) => {
      if (failures-- > 0) {
        bluesky.metricReads.push({ at: clock.now(), id: published.id });
        throw bluesky.failure("retry", "Bad Gateway");
      }
      return read(account, published);
    };
    bluesky.figures = { likes: 9 };
    await clock.advance(HOUR);
    expect(bluesky.metricReads.map((r) => r.at - publishedAt)).toEqual([5 * MIN, HOUR]);
    expect((await targetsOf(user, post.id)).bluesky.likes).toBe(9);
  });
});
