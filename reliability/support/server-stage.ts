import { randomBytes } from "node:crypto";
import { provisionUser } from "@socialpub/core";
import { onTestFinished } from "vitest";
import {
  type ServerProcess,
  startServerProcess,
  TEST_KEY,
} from "../../packages/server/test/support/cli-process.ts";
import { FrontProxy } from "../../packages/server/test/support/front-proxy.ts";
import {
  type NetworkPeers,
  type PeerNetwork,
  startNetworkPeers,
} from "../../packages/server/test/support/network-peers.ts";
import type { Figures } from "./figures.ts";
import { call } from "./http.ts";
import { databaseArgs, KEYS, newTestDatabase, openTestStore } from "./store.ts";

/*
 * Where a scenario that kills and restarts the server process runs: a database of the store under test
 * and `socialpub-server start` on it, as often as the scenario starts it. With test keys the server runs
 * `--dev` and publishes to the sandbox; with live keys (the `reliability-live` project) the user holds
 * a live key, the networks' peers run, and the first start connects an account of each network the way
 * a person does (app password, bot token, webhook URL, the OAuth fakes' consent pages), through a front
 * proxy that keeps the server's public address across restarts. Everything is killed, stopped and
 * removed when the test ends, passed or failed.
 */

/** The networks a live run connects: every kind of connect, and a two-step publish (Threads). */
export const LIVE_NETWORKS: readonly PeerNetwork[] = [
  "bluesky",
  "x",
  "linkedin",
  "threads",
  "telegram",
  "discord",
];

const LIVE_KEY = `sp_live_${"ReliabilityLiveKeys0123456789abc".repeat(2)}`;

export interface ServerStage {
  /** The user's key: the dev key in the sandbox, a live key provisioned in the database otherwise. */
  readonly key: string;
  /** What `--db` takes. */
  readonly db: string;
  /** The networks' peers with live keys; null in the sandbox. */
  readonly peers: NetworkPeers | null;
  /** Starts the server (again) on the stage's database and waits until it listens. */
  start(): Promise<ServerProcess>;
}

export async function serverStage(figures: Figures, name: string): Promise<ServerStage> {
  const cleanups: (() => unknown)[] = [];
  onTestFinished(async () => {
    for (const clean of cleanups.splice(0).reverse()) await clean();
  });
  const database = await newTestDatabase(name);
  cleanups.push(() => database.remove());
  const args = [...databaseArgs(database.location), "--rate-limit", "0", "--log-level", "warn"];
  // One secret key for every start of the stage's database, as a deployment has: on PostgreSQL the
  // server will not start without one (it has no data folder to keep its own in).
  const secretKey = randomBytes(32).toString("base64");
  const started = async (more: string[], env: Record<string, string> = {}) => {
    const server = await startServerProcess([...args, ...more], { SOCIALPUB_SECRET_KEY: secretKey, ...env });
    cleanups.push(() => server.stop("SIGKILL"));
    return server;
  };
  if (KEYS === "test") {
    const start = () => started(["--dev", "--dev-key", TEST_KEY]);
    return { key: TEST_KEY, db: database.location, peers: null, start };
  }

  const [peers, front] = await Promise.all([startNetworkPeers(LIVE_NETWORKS), FrontProxy.start()]);
  cleanups.push(
    () => peers.stop(),
    () => front.close(),
  );
  const store = await openTestStore(database.location);
  await provisionUser(store, { accounts: [], key: LIVE_KEY, plan: "studio" });
  await store.close();
  const env = { ...peers.env, SOCIALPUB_PUBLIC_URL: front.url };
  let connected = false;
  return {
    key: LIVE_KEY,
    db: database.location,
    peers,
    async start() {
      // Private addresses: the peers (the PDS, the Discord webhook) listen on 127.0.0.1.
      const server = await started(["--allow-private-urls"], env);
      front.target = new URL(server.url);
      if (!connected) {
        for (const network of LIVE_NETWORKS) {
          await peers.connect(network, (body) =>
            call(figures, server, LIVE_KEY, "POST", "/accounts/connect", { body }),
          );
        }
        connected = true;
      }
      return server;
    },
  };
}
