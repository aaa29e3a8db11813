import { type ProvisionOptions, provisionUser } from "@socialpub/core";
import {
  createLogger,
  openSqliteStore,
  type RunningServer,
  type SqliteStore,
  type StartServerOptions,
  startServer,
} from "@socialpub/server";
import { tempDir } from "../../packages/server/test/support/temp-dir.ts";

export interface InProcessServer {
  server: RunningServer;
  store: SqliteStore;
  /** The SQLite file. */
  db: string;
  /** Provisions a user in the server's store; returns its id and key. */
  user(options?: ProvisionOptions): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

/**
 * The real server (node:http, the SQLite store in a file of its own) on 127.0.0.1 and a free port, in
 * this process so a check can reach its store and pass it options (timeouts, rate limit, a clock).
 */
export async function startInProcessServer(
  options: Omit<StartServerOptions, "store" | "port" | "host"> = {},
): Promise<InProcessServer> {
  const dir = tempDir("socialpub-reliability-");
  const db = dir.file("service.db");
  const store = openSqliteStore(db);
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    store,
    logger: createLogger({ level: "silent" }),
    ...options,
  });
  return {
    server,
    store,
    db,
    user: async (provision = {}) => {
      const { user, apiKey } = await provisionUser(store, {
        plan: "studio",
        accounts: ["x", "bluesky", "linkedin"],
        ...provision,
      });
      return { id: user.id, key: apiKey };
    },
    close: async () => {
      await server.close();
      await store.close();
      dir.remove();
    },
  };
}
