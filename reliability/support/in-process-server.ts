import { type ProvisionOptions, provisionUser, type Store } from "@socialpub/core";
import { createLogger, type RunningServer, type StartServerOptions, startServer } from "@socialpub/server";
import { newTestDatabase, openTestStore } from "./store.ts";

export interface InProcessServer {
  server: RunningServer;
  store: Store;
  /** What `--db` takes for the server's database: the SQLite file or the PostgreSQL URL. */
  db: string;
  /** Provisions a user in the server's store; returns its id and key. */
  user(options?: ProvisionOptions): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

/**
 * The real server (node:http, on a database of its own in the store under test) on 127.0.0.1 and a free
 * port, in this process so a check can reach its store and pass it options (timeouts, rate limit, a clock).
 */
export async function startInProcessServer(
  options: Omit<StartServerOptions, "store" | "port" | "host"> = {},
): Promise<InProcessServer> {
  const database = await newTestDatabase("service");
  const store = await openTestStore(database.location);
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
    db: database.location,
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
      database.remove();
    },
  };
}
