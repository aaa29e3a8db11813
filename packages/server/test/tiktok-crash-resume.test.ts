import { randomBytes } from "node:crypto";
import { provisionUser, SAMPLE_MP4 } from "@socialpub/core/testing";
import { TikTokFake } from "@socialpub/networks/tiktok/fake";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { api, type ServerProcess, startServerProcess } from "./support/cli-process.ts";
import { FrontProxy } from "./support/front-proxy.ts";
import { grantInBrowser, until } from "./support/oauth-browser.ts";
import { tempDir } from "./support/temp-dir.ts";

/*
 * A server process killed between the two steps of a TikTok post (the post started with video/init, its
 * video uploaded and its publish_id saved, TikTok still processing it) and started again on the same
 * database polls that publish_id: TikTok ends up with exactly one post and a single init.
 */

const LIVE_KEY = `sp_live_${"TikTokCrashBetweenInitAndStatus0".repeat(2)}`;
const SECRET_KEY = randomBytes(32).toString("base64");

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

describe("tiktok: a crash between init and PUBLISH_COMPLETE", () => {
  it("resumes polling the saved publish_id after a restart and never starts a second post", {
    timeout: 240_000,
  }, async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const db = dir.file("live.db");
    const [fake, front] = await Promise.all([TikTokFake.start(), FrontProxy.start()]);
    cleanups.push(
      () => fake.close(),
      () => front.close(),
    );
    const app = fake.addApp();
    const alice = fake.addCreator({ username: "alice.tt" });
    fake.signIn(alice);
    const store = openSqliteStore(db);
    await provisionUser(store, { accounts: [], key: LIVE_KEY, plan: "studio" });
    await store.close();
    const env = {
      SOCIALPUB_SECRET_KEY: SECRET_KEY,
      SOCIALPUB_PUBLIC_URL: front.url,
      SOCIALPUB_TIKTOK_API_URL: fake.url,
      SOCIALPUB_TIKTOK_AUTH_URL: `${fake.url}/v2/auth/authorize/`,
      SOCIALPUB_TIKTOK_CLIENT_ID: app.clientId,
      SOCIALPUB_TIKTOK_CLIENT_SECRET: app.clientSecret,
      SOCIALPUB_LOG_LEVEL: "silent",
    };
    const start = async () => {
      const server = await startServerProcess(["--db", db], env);
      cleanups.push(() => void server.stop("SIGKILL"));
      front.target = new URL(server.url);
      return server;
    };
    let server: ServerProcess = await start();
    const connect = await api(front, LIVE_KEY, "POST", "/accounts/connect", { platform: "tiktok" });
    expect(connect.status).toBe(201);
    expect((await grantInBrowser(connect.body.authorize_url)).status).toBe(200);

    // TikTok takes its time with the video: the server has started the post, saved its publish_id,
    // sent the video, and polls.
    fake.publishes.hold = true;
    const clip = new Uint8Array(256 * 1024);
    clip.set(SAMPLE_MP4);
    const upload = await fetch(`${front.url}/api/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${LIVE_KEY}`, "content-type": "video/mp4" },
      body: clip,
    });
    expect(upload.status).toBe(201);
    const media = ((await upload.json()) as { id: string }).id;
    const request = api(front, LIVE_KEY, "POST", "/posts", {
      caption: "Survives a crash",
      platforms: ["tiktok"],
      media,
    }).catch(() => null);
    const polled = await until(
      async () => [...fake.publishes.statusReads.values()][0] ?? 0,
      (reads) => reads >= 2,
      60_000,
    );
    expect(polled).toBeGreaterThanOrEqual(2);
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    await request;
    const [started] = fake.publishesOf(alice);
    expect(started).toMatchObject({ status: "PROCESSING_UPLOAD", received: clip.length });

    fake.publishes.release();
    server = await start();
    const posts: { id: string; status: string }[] = await until(
      async () => (await api(front, LIVE_KEY, "GET", "/posts")).body.data,
      (data: { id: string; status: string }[]) => data[0]?.status === "published",
      60_000,
    );
    expect(posts[0]!.status).toBe("published");
    expect(fake.inits).toEqual([{ path: "/v2/post/publish/video/init/", code: "ok" }]);
    expect(fake.publishesOf(alice)).toHaveLength(1);
    expect(fake.publishesOf(alice)[0]).toMatchObject({
      publishId: started!.publishId,
      status: "PUBLISH_COMPLETE",
      title: "Survives a crash",
      privacy: "SELF_ONLY",
    });
    const targets = (await api(front, LIVE_KEY, "GET", `/posts/${posts[0]!.id}/targets`)).body.data;
    expect(targets[0].permalink).toBe("https://www.tiktok.com/@alice.tt");
    await server.stop();
  });
});
