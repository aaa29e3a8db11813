import { randomBytes } from "node:crypto";
import { provisionUser, SAMPLE_MP4 } from "@socialpub/core/testing";
import { YouTubeFake } from "@socialpub/networks/youtube/fake";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { api, type ServerProcess, startServerProcess } from "./support/cli-process.ts";
import { FrontProxy } from "./support/front-proxy.ts";
import { grantInBrowser, until } from "./support/oauth-browser.ts";
import { tempDir } from "./support/temp-dir.ts";

/*
 * A server process killed in the middle of a YouTube upload (the resumable session opened and saved,
 * part of the bytes sent) and started again on the same database resumes that session: it asks YouTube
 * where the session stands (`Content-Range: bytes *\/N`), sends only the rest, and the channel ends up
 * with exactly one video, from the one session.
 */

const LIVE_KEY = `sp_live_${"CrashInTheMiddleOfAYouTubeUpload".repeat(2)}`;
const SECRET_KEY = randomBytes(32).toString("base64");
const HELD_BYTES = 100 * 1024;

const VIDEO = (() => {
  const bytes = new Uint8Array(400 * 1024);
  bytes.set(SAMPLE_MP4, 0);
  for (let i = SAMPLE_MP4.length; i < bytes.length; i++) bytes[i] = i % 253;
  return bytes;
})();

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

describe("youtube: a crash between opening the upload session and its last byte", () => {
  it("resumes the saved session after a restart and makes one video", { timeout: 240_000 }, async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const db = dir.file("live.db");
    const [fake, front] = await Promise.all([YouTubeFake.start(), FrontProxy.start()]);
    cleanups.push(
      () => fake.close(),
      () => front.close(),
    );
    const app = fake.addApp();
    const ada = fake.addUser({ title: "Ada Ships", handle: "@adaships" });
    fake.signIn(ada);
    const store = openSqliteStore(db);
    await provisionUser(store, { accounts: [], key: LIVE_KEY, plan: "studio" });
    await store.close();
    const env = {
      SOCIALPUB_SECRET_KEY: SECRET_KEY,
      SOCIALPUB_PUBLIC_URL: front.url,
      SOCIALPUB_YOUTUBE_API_URL: fake.url,
      SOCIALPUB_YOUTUBE_AUTH_URL: `${fake.url}/o/oauth2/v2/auth`,
      SOCIALPUB_YOUTUBE_CLIENT_ID: app.clientId,
      SOCIALPUB_YOUTUBE_CLIENT_SECRET: app.clientSecret,
      SOCIALPUB_LOG_LEVEL: "silent",
    };
    const start = async () => {
      const server = await startServerProcess(["--db", db], env);
      cleanups.push(() => void server.stop("SIGKILL"));
      front.target = new URL(server.url);
      return server;
    };
    let server: ServerProcess = await start();
    const connect = await api(front, LIVE_KEY, "POST", "/accounts/connect", { platform: "youtube" });
    expect(connect.status).toBe(201);
    expect((await grantInBrowser(connect.body.authorize_url)).status).toBe(200);
    const upload = await fetch(`${front.url}/api/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${LIVE_KEY}`, "content-type": "video/mp4" },
      body: VIDEO,
    });
    expect(upload.status).toBe(201);
    const media = ((await upload.json()) as { id: string }).id;

    // YouTube takes the first bytes of the upload and then goes quiet: the server waits on its PUT.
    fake.holdUploads(HELD_BYTES);
    const request = api(front, LIVE_KEY, "POST", "/posts", {
      caption: "Survives a crash\nUploaded once.",
      platforms: ["youtube"],
      media,
    }).catch(() => null);
    const held = await until(
      async () => [...fake.sessions.values()][0]?.received.length ?? 0,
      (bytes) => bytes >= HELD_BYTES,
      60_000,
    );
    expect(held).toBe(HELD_BYTES);
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    await request;
    expect(fake.videos).toEqual([]);
    const [session] = [...fake.sessions.values()];

    fake.release();
    server = await start();
    const posts: { id: string; status: string }[] = await until(
      async () => (await api(front, LIVE_KEY, "GET", "/posts")).body.data,
      (data: { id: string; status: string }[]) => data[0]?.status === "published",
      60_000,
    );
    expect(posts[0]!.status).toBe("published");
    expect(fake.sessions.size).toBe(1);
    expect(fake.videosOf(ada)).toHaveLength(1);
    expect(fake.videosOf(ada)[0]).toMatchObject({
      sessionId: session!.id,
      title: "Survives a crash",
      description: "Uploaded once.",
      bytes: VIDEO.length,
    });
    // The first PUT (held, answered to no one after the kill); then the restarted server asked where
    // the session stood and sent only what YouTube lacked.
    expect(fake.puts.map((p) => [p.range, p.status])).toEqual([
      [`bytes 0-${VIDEO.length - 1}/${VIDEO.length}`, 503],
      [`bytes */${VIDEO.length}`, 308],
      [`bytes ${HELD_BYTES}-${VIDEO.length - 1}/${VIDEO.length}`, 201],
    ]);
    const targets = (await api(front, LIVE_KEY, "GET", `/posts/${posts[0]!.id}/targets`)).body.data;
    expect(targets[0].permalink).toBe(`https://www.youtube.com/watch?v=${fake.videosOf(ada)[0]!.id}`);
    await server.stop();
  });
});
