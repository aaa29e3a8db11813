import { randomBytes } from "node:crypto";
import {
  type Clock,
  CredentialKeyring,
  type NetworkAdapters,
  type PublishingOptions,
  provisionUser,
  type Store,
} from "@socialpub/core";
import { expect } from "vitest";
import type { OAuthAppSettings } from "../../src/live/network-adapters.ts";
import { type NetworkSettings, networkAdapters } from "../../src/live/network-adapters.ts";
import { createLogger } from "../../src/logging.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store.ts";
import { api } from "./cli-process.ts";
import { FrontProxy } from "./front-proxy.ts";

/*
 * The server an OAuth network's end-to-end test talks to: on a loopback port behind a front proxy
 * whose address it is told is its public one (the address the network redirects the browser back to
 * and fetches media from), with a fresh key ring, an in-memory store and one user holding the test's
 * live key. Every API answer is kept in `seen`, so a test can check at the end that no token leaked.
 */

export interface LiveOAuthServer {
  front: FrontProxy;
  server: RunningServer;
  store: Store;
  userId: string;
  /** Every API answer, as JSON text, in order. */
  seen: string[];
  /** Calls the API through the public address with the live key. */
  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field by the tests.
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Uploads media through the public address with the live key; answers its id. */
  upload(bytes: Uint8Array<ArrayBuffer>, type: string): Promise<string>;
  close(): Promise<void>;
}

/** The app a test registered on a network fake, as the server's settings for that network. */
export const appSettings = (app: { clientId: string; clientSecret: string }): OAuthAppSettings => ({
  clientId: app.clientId,
  clientSecret: app.clientSecret,
  missingSettings: [],
});

export async function startLiveOAuthServer(
  liveKey: string,
  addresses: NetworkSettings,
  options: {
    allowPrivateWebhookUrls?: boolean;
    /** Start the server without being told its public address (as a server missing that setting). */
    withoutPublicUrl?: boolean;
    /** The largest request body (an uploaded video) the server reads. */
    bodyLimit?: number;
    /** The server's clock (a FakeClock moves its timers: the sweep, the metrics reads); the user is made at its time. */
    clock?: Clock;
    /** The adapters to publish with, where the test makes them itself (one that counts on the test's clock). */
    adapters?: NetworkAdapters;
    /** Publishing's figures, where a test needs them shorter (an attempt's time limit, the retry delays). */
    publishing?: PublishingOptions;
  } = {},
): Promise<LiveOAuthServer> {
  const front = await FrontProxy.start();
  const store = openSqliteStore(":memory:");
  let server: RunningServer | undefined;
  try {
    const userId = (
      await provisionUser(store, {
        accounts: [],
        key: liveKey,
        plan: "studio",
        ...(options.clock && { now: options.clock.now() }),
      })
    ).user.id;
    server = await startServer({
      port: 0,
      host: "127.0.0.1",
      store,
      ...(options.clock && { clock: options.clock }),
      logger: createLogger({ level: "silent" }),
      retention: false,
      ...(options.bodyLimit !== undefined && { bodyLimit: options.bodyLimit }),
      service: {
        ...(!options.withoutPublicUrl && { publicUrl: front.url }),
        credentialKeyring: new CredentialKeyring(randomBytes(32)),
        liveAdapters: options.adapters ?? networkAdapters(addresses),
        rateLimit: false,
        ...(options.publishing && { publishing: options.publishing }),
        ...(options.allowPrivateWebhookUrls && { allowPrivateWebhookUrls: true }),
      },
    });
    front.target = new URL(server.url);
    const running = server;
    const seen: string[] = [];
    return {
      front,
      server,
      store,
      userId,
      seen,
      async call(method, path, body) {
        const res = await api(front, liveKey, method, path, body);
        seen.push(JSON.stringify(res.body));
        return res;
      },
      async upload(bytes, type) {
        const res = await fetch(`${front.url}/api/v1/media`, {
          method: "POST",
          headers: { authorization: `Bearer ${liveKey}`, "content-type": type },
          body: bytes,
        });
        expect(res.status).toBe(201);
        return ((await res.json()) as { id: string }).id;
      },
      async close() {
        await running.close();
        await Promise.all([front.close(), store.close()]);
      },
    };
  } catch (error) {
    await server?.close();
    await Promise.all([front.close(), store.close()]);
    throw error;
  }
}
