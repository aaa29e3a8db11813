import { createConnection, createServer, type Server, type Socket } from "node:net";
import { StoreUnavailableError } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { newDatabase } from "./support/databases.ts";

/*
 * A query whose answer never comes, on a connection that stays open: neither the statement timeout (the
 * database did answer) nor the connect timeout (the connection is up) ends the wait, as when the driver
 * loses track of a connection. The store's deadline answers 503 and replaces the connections, so the
 * next call works.
 */

/** A TCP proxy in front of PostgreSQL that can stop passing bytes on the connections open now. */
class SilencingProxy {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  readonly port: number;

  private constructor(server: Server, port: number) {
    this.server = server;
    this.port = port;
  }

  static async start(target: URL): Promise<SilencingProxy> {
    let proxy: SilencingProxy | undefined;
    const server = createServer((client) => {
      const upstream = createConnection(Number(target.port), target.hostname);
      proxy!.sockets.add(client).add(upstream);
      client.on("data", (chunk) => upstream.write(chunk));
      upstream.on("data", (chunk) => client.write(chunk));
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on("close", end).on("error", end);
      upstream.on("close", end).on("error", end);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    proxy = new SilencingProxy(server, typeof address === "object" && address ? address.port : 0);
    return proxy;
  }

  /** Drops whatever passes on the connections open now, both ways; later connections pass as before. */
  silenceOpenConnections(): void {
    for (const socket of this.sockets) socket.removeAllListeners("data");
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let proxy: SilencingProxy;
let store: PostgresStore;

beforeAll(async () => {
  const db = new URL(await newDatabase("deadline"));
  proxy = await SilencingProxy.start(db);
  const through = new URL(db);
  through.port = String(proxy.port);
  store = await openPostgresStore(through.toString(), { poolSize: 2, queryDeadlineMs: 1500 });
}, 60_000);

afterAll(async () => {
  await store?.close();
  await proxy?.close();
});

describe("the query deadline", () => {
  it("answers a call whose answer never comes as unavailable within the deadline, and the next call works", async () => {
    await store.ping();
    proxy.silenceOpenConnections();
    const started = performance.now();
    const error = await store.ping().then(
      () => null,
      (e: unknown) => e,
    );
    const waited = performance.now() - started;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(String((error as Error).message)).toMatch(/no answer from the database within 1500 ms/);
    expect(waited).toBeGreaterThanOrEqual(1400);
    expect(waited).toBeLessThan(10_000);
    // Fresh connections: answered again.
    await store.ping();
    expect(await store.listUsers()).toEqual([]);
  });
});
