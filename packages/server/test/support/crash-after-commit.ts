/**
 * A socialpub server that kills itself with SIGKILL the moment a chosen store write has committed: the
 * crash a test needs at an exact point (the change is on disk, nothing after it has run), rather than
 * a kill raced against a request.
 *
 *   node crash-after-commit.ts <database> <store method> [<which call, default 1>]
 *
 * It runs the real server (startServer on the SQLite store, under the one-server lock), and prints
 * `listening on <url>` as `socialpub-server start` does. Start it with `startCrashingServer`.
 */
import type { Store } from "@socialpub/core";
import { createLogger } from "../../src/logging.ts";
import { startServer } from "../../src/server.ts";
import { lockDatabaseForServer } from "../../src/store/server-lock.ts";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store.ts";

const [database, method, which = "1"] = process.argv.slice(2);
if (!database || !method) throw new Error("usage: crash-after-commit.ts <database> <store method> [<call>]");

const store = openSqliteStore(database);
// Held for the life of the process, as the CLI holds it; the SIGKILL releases it with the process.
const lock = lockDatabaseForServer(store.path);
process.on("exit", () => lock.release());
let calls = 0;
const crashing = new Proxy(store, {
  get(target, property) {
    const value: unknown = Reflect.get(target, property, target);
    if (typeof value !== "function") return value;
    if (property !== method) return value.bind(target);
    return async (...args: unknown[]) => {
      const result: unknown = await value.apply(target, args);
      if (++calls === Number(which)) {
        process.kill(process.pid, "SIGKILL");
        // Nothing of the request goes on while the signal lands.
        await new Promise(() => {});
      }
      return result;
    };
  },
}) as Store;
const server = await startServer({ port: 0, store: crashing, logger: createLogger({ level: "silent" }) });
process.stdout.write(`listening on ${server.url}\n`);
