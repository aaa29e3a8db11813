import { randomBytes } from "node:crypto";
import { provisionUser } from "@socialpub/core/testing";
import { expect, onTestFinished } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store.ts";
import { api, type ServerProcess, startServerProcess } from "./cli-process.ts";
import { FrontProxy } from "./front-proxy.ts";
import { HoldingProxy } from "./holding-proxy.ts";
import { grantInBrowser, until } from "./oauth-browser.ts";
import { tempDir } from "./temp-dir.ts";

/*
 * The stage of a crash-and-resume test: a network's fake, a SQLite database holding one user with a
 * live key, and a server process on that database behind a front proxy, so the server can be killed
 * with SIGKILL and started again on the same database and the same public address (the one the
 * network's OAuth callback and the user reach it at). With `holding`, the server reaches the network's
 * API through a HoldingProxy, so a test can keep an answer back and kill the server while it waits.
 * Everything is stopped and removed when the test ends, passed or failed.
 */

/** A network fake as far as the stage needs it: where it listens, an app to register, a close. */
interface NetworkFake {
  readonly url: string;
  addApp(): { clientId: string; clientSecret: string };
  close(): Promise<void>;
}

export interface CrashNetwork<F extends NetworkFake> {
  /** The network's name in the API (`platform`). */
  platform: string;
  /** The network's part of the server's environment names: SOCIALPUB_<prefix>_API_URL and so on. */
  prefix: string;
  /** The path of the network's authorize page on its fake. */
  authPath: string;
  start(): Promise<F>;
}

export interface CrashStage<F extends NetworkFake> {
  readonly fake: F;
  readonly front: FrontProxy;
  /** With `holding`, the proxy the server reaches the network's API through, to keep an answer back. */
  readonly holding: HoldingProxy | null;
  /** Starts the server (again) on the stage's database and points the front proxy at it. */
  start(): Promise<ServerProcess>;
  /** A request to the server, through the front proxy, with the stage's live key. */
  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field by the tests.
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Connects the network as the person signed in on its fake does, through its consent page. */
  connect(): Promise<void>;
  /** Uploads media through the API and answers its id. */
  upload(bytes: Uint8Array<ArrayBuffer>, type: string): Promise<string>;
  /** Waits (up to a minute) for the user's first post to be published and answers it. */
  published(): Promise<{ id: string; status: string }>;
  /** The permalink of a post's first target. */
  permalink(postId: string): Promise<string>;
}

export async function crashStage<F extends NetworkFake>(
  network: CrashNetwork<F>,
  key: string,
  options: { holding?: boolean } = {},
): Promise<CrashStage<F>> {
  const cleanups: (() => Promise<void> | void)[] = [];
  onTestFinished(async () => {
    for (const clean of cleanups.splice(0).reverse()) await clean();
  });
  const dir = tempDir();
  cleanups.push(() => dir.remove());
  const db = dir.file("live.db");
  const [fake, front] = await Promise.all([network.start(), FrontProxy.start()]);
  cleanups.push(
    () => fake.close(),
    () => front.close(),
  );
  const holding = options.holding ? await HoldingProxy.start(fake.url) : null;
  if (holding) cleanups.push(() => holding.close());
  const app = fake.addApp();
  const store = openSqliteStore(db);
  await provisionUser(store, { accounts: [], key, plan: "studio" });
  await store.close();
  const env = {
    SOCIALPUB_SECRET_KEY: randomBytes(32).toString("base64"),
    SOCIALPUB_PUBLIC_URL: front.url,
    [`SOCIALPUB_${network.prefix}_API_URL`]: holding?.url ?? fake.url,
    [`SOCIALPUB_${network.prefix}_AUTH_URL`]: `${fake.url}${network.authPath}`,
    [`SOCIALPUB_${network.prefix}_CLIENT_ID`]: app.clientId,
    [`SOCIALPUB_${network.prefix}_CLIENT_SECRET`]: app.clientSecret,
    SOCIALPUB_LOG_LEVEL: "silent",
  };
  const call: CrashStage<F>["api"] = (method, path, body) => api(front, key, method, path, body);

  return {
    fake,
    front,
    holding,
    async start() {
      const server = await startServerProcess(["--db", db], env);
      cleanups.push(() => void server.stop("SIGKILL"));
      front.target = new URL(server.url);
      return server;
    },
    api: call,
    async connect() {
      const connect = await call("POST", "/accounts/connect", { platform: network.platform });
      expect(connect.status).toBe(201);
      expect((await grantInBrowser(connect.body.authorize_url)).status).toBe(200);
    },
    async upload(bytes, type) {
      const upload = await fetch(`${front.url}/api/v1/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": type },
        body: bytes,
      });
      expect(upload.status).toBe(201);
      return ((await upload.json()) as { id: string }).id;
    },
    async published() {
      const posts: { id: string; status: string }[] = await until(
        async () => (await call("GET", "/posts")).body.data,
        (data: { id: string; status: string }[]) => data[0]?.status === "published",
        60_000,
      );
      expect(posts[0]!.status).toBe("published");
      return posts[0]!;
    },
    async permalink(postId) {
      return (await call("GET", `/posts/${postId}/targets`)).body.data[0].permalink;
    },
  };
}
