import { randomBytes } from "node:crypto";
import { provisionUser, SAMPLE_PNG } from "@socialpub/core/testing";
import { InstagramFake } from "@socialpub/networks/instagram/fake";
import type { MetaFake } from "@socialpub/networks/meta/fake";
import { ThreadsFake } from "@socialpub/networks/threads/fake";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { api, type ServerProcess, startServerProcess } from "./support/cli-process.ts";
import { FrontProxy } from "./support/front-proxy.ts";
import { grantInBrowser, until } from "./support/oauth-browser.ts";
import { tempDir } from "./support/temp-dir.ts";

/*
 * A server process killed between the two steps of a publish (the network's media container made and
 * saved, not yet published) and started again on the same database resumes from the saved container:
 * the network ends up with exactly one post, made from the first container, and no second container.
 */

const LIVE_KEY = `sp_live_${"CrashBetweenContainerAndPublish01".repeat(2)}`;
const SECRET_KEY = randomBytes(32).toString("base64");

interface Case {
  platform: "threads" | "instagram";
  prefix: string;
  /** Instagram needs an image for every post. */
  withImage: boolean;
  start(): Promise<MetaFake>;
}

const CASES: Case[] = [
  { platform: "threads", prefix: "THREADS", withImage: false, start: () => ThreadsFake.start() },
  { platform: "instagram", prefix: "INSTAGRAM", withImage: true, start: () => InstagramFake.start() },
];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

describe.each(CASES)("$platform: a crash between container and publish", (c) => {
  it("resumes from the saved container after a restart and publishes once", {
    timeout: 240_000,
  }, async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const db = dir.file("live.db");
    const [fake, front] = await Promise.all([c.start(), FrontProxy.start()]);
    cleanups.push(
      () => fake.close(),
      () => front.close(),
    );
    const app = fake.addApp();
    const alice = fake.addUser({ username: "alice_ships" });
    fake.signIn(alice);
    const store = openSqliteStore(db);
    await provisionUser(store, { accounts: [], key: LIVE_KEY, plan: "studio" });
    await store.close();
    const env = {
      SOCIALPUB_SECRET_KEY: SECRET_KEY,
      SOCIALPUB_PUBLIC_URL: front.url,
      [`SOCIALPUB_${c.prefix}_API_URL`]: fake.url,
      [`SOCIALPUB_${c.prefix}_AUTH_URL`]: `${fake.url}/oauth/authorize`,
      [`SOCIALPUB_${c.prefix}_CLIENT_ID`]: app.clientId,
      [`SOCIALPUB_${c.prefix}_CLIENT_SECRET`]: app.clientSecret,
      SOCIALPUB_LOG_LEVEL: "silent",
    };
    const start = async () => {
      const server = await startServerProcess(["--db", db], env);
      cleanups.push(() => void server.stop("SIGKILL"));
      front.target = new URL(server.url);
      return server;
    };
    let server: ServerProcess = await start();
    const connect = await api(front, LIVE_KEY, "POST", "/accounts/connect", { platform: c.platform });
    expect(connect.status).toBe(201);
    expect((await grantInBrowser(connect.body.authorize_url)).status).toBe(200);

    // The network takes its time with the container: the server has made and saved it, and polls.
    fake.holdContainers = true;
    let media: string | undefined;
    if (c.withImage) {
      const upload = await fetch(`${front.url}/api/v1/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${LIVE_KEY}`, "content-type": "image/png" },
        body: SAMPLE_PNG,
      });
      expect(upload.status).toBe(201);
      media = ((await upload.json()) as { id: string }).id;
    }
    const request = api(front, LIVE_KEY, "POST", "/posts", {
      caption: "Survives a crash",
      platforms: [c.platform],
      ...(media && { media }),
    }).catch(() => null);
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
    server = await start();
    const posts: { id: string; status: string }[] = await until(
      async () => (await api(front, LIVE_KEY, "GET", "/posts")).body.data,
      (data: { id: string; status: string }[]) => data[0]?.status === "published",
      60_000,
    );
    expect(posts[0]!.status).toBe("published");
    expect(fake.containers.size).toBe(1);
    expect(fake.publishCalls).toEqual([container!.id]);
    expect(fake.postsOf(alice)).toHaveLength(1);
    expect(fake.postsOf(alice)[0]).toMatchObject({ containerId: container!.id, text: "Survives a crash" });
    const targets = (await api(front, LIVE_KEY, "GET", `/posts/${posts[0]!.id}/targets`)).body.data;
    expect(targets[0].permalink).toBe(fake.postsOf(alice)[0]!.permalink);
    await server.stop();
  });
});
