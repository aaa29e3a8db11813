import { SAMPLE_PNG } from "@socialpub/core/testing";
import { InstagramFake } from "@socialpub/networks/instagram/fake";
import type { MetaFake } from "@socialpub/networks/meta/fake";
import { ThreadsFake } from "@socialpub/networks/threads/fake";
import { describe, expect, it } from "vitest";
import { type CrashNetwork, crashStage } from "./support/crash-stage.ts";
import { until } from "./support/oauth-browser.ts";

/*
 * A server process killed between the two steps of a publish (the network's media container made and
 * saved, not yet published) and started again on the same database resumes from the saved container:
 * the network ends up with exactly one post, made from the first container, and no second container.
 * Killed sooner, while the network made the container and before its answer came (so nothing was
 * saved), the restarted server reads the account's recent posts back, finds none made from the post,
 * and sends it again: one post, its container the second one.
 */

const LIVE_KEY = `sp_live_${"CrashBetweenContainerAndPublish01".repeat(2)}`;

interface Case extends CrashNetwork<MetaFake> {
  /** Instagram needs an image for every post. */
  withImage: boolean;
  /** The path of the request that makes a container (and, with a query, lists the account's posts). */
  containerPath: RegExp;
}

const AUTH_PATH = "/oauth/authorize";
const CASES: Case[] = [
  {
    platform: "threads",
    prefix: "THREADS",
    authPath: AUTH_PATH,
    withImage: false,
    containerPath: /^\/v1\.0\/\d+\/threads$/,
    start: () => ThreadsFake.start(),
  },
  {
    platform: "instagram",
    prefix: "INSTAGRAM",
    authPath: AUTH_PATH,
    withImage: true,
    containerPath: /^\/v23\.0\/\d+\/media$/,
    start: () => InstagramFake.start(),
  },
];

describe.each(CASES)("$platform: a crash between container and publish", (c) => {
  it("resumes from the saved container after a restart and publishes once", {
    timeout: 240_000,
  }, async () => {
    const stage = await crashStage(c, LIVE_KEY);
    const { fake } = stage;
    const alice = fake.addUser({ username: "alice_ships" });
    fake.signIn(alice);
    let server = await stage.start();
    await stage.connect();

    // The network takes its time with the container: the server has made and saved it, and polls.
    fake.holdContainers = true;
    const media = c.withImage ? await stage.upload(SAMPLE_PNG, "image/png") : undefined;
    const request = stage
      .api("POST", "/posts", {
        caption: "Survives a crash",
        platforms: [c.platform],
        ...(media && { media }),
      })
      .catch(() => null);
    const polled = await until(
      async () => [...fake.statusReads.values()][0] ?? 0,
      (reads) => reads >= 2,
      60_000,
    );
    expect(polled).toBeGreaterThanOrEqual(2);
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    await request;
    expect(fake.publishCalls).toEqual([]);
    const [container] = [...fake.containers.values()];

    fake.release();
    server = await stage.start();
    const post = await stage.published();
    expect(fake.containers.size).toBe(1);
    expect(fake.publishCalls).toEqual([container!.id]);
    expect(fake.postsOf(alice)).toHaveLength(1);
    expect(fake.postsOf(alice)[0]).toMatchObject({ containerId: container!.id, text: "Survives a crash" });
    expect(await stage.permalink(post.id)).toBe(fake.postsOf(alice)[0]!.permalink);
    await server.stop();
  });
});

describe.each(CASES)("$platform: a crash while the container was made", (c) => {
  it("reads the account's posts back after a restart, finds none, and publishes once", {
    timeout: 240_000,
  }, async () => {
    const stage = await crashStage(c, LIVE_KEY, { holding: true });
    const { fake } = stage;
    const holding = stage.holding!;
    const alice = fake.addUser({ username: "alice_ships" });
    fake.signIn(alice);
    let server = await stage.start();
    await stage.connect();
    const media = c.withImage ? await stage.upload(SAMPLE_PNG, "image/png") : undefined;

    // The network makes the container; its answer never comes, and the server is killed waiting for it.
    holding.holdOnly = c.containerPath;
    holding.hold = true;
    const request = stage
      .api("POST", "/posts", { caption: "Cut off early", platforms: [c.platform], ...(media && { media }) })
      .catch(() => null);
    await holding.heldOne();
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    await request;
    holding.hold = false;
    expect(fake.containers.size).toBe(1);
    expect(fake.publishCalls).toEqual([]);
    const [lost] = [...fake.containers.values()];

    server = await stage.start();
    const post = await stage.published();
    // Asked first: the account's posts since the post was made, none of them from it.
    expect(fake.listings.length).toBeGreaterThan(0);
    expect(fake.listings[0]).toMatchObject({ fields: `id,${fake.shape.textField},permalink,timestamp` });
    const [made] = fake.postsOf(alice);
    expect(fake.postsOf(alice)).toHaveLength(1);
    expect(made).toMatchObject({ text: "Cut off early" });
    expect(made!.containerId).not.toBe(lost!.id);
    expect(fake.publishCalls).toEqual([made!.containerId]);
    expect(await stage.permalink(post.id)).toBe(made!.permalink);
    await server.stop();
  });
});
