// The server under test, as `socialpub-server start` runs it: startServer on a SQLite file (WAL, the
// synchronous setting the server ships with), its scheduler armed, one JSON log line per request written
// to standard output (here /dev/null). Two differences, both needed to measure at all: the per-key rate
// limit is off (600 requests a minute would end a run in a few milliseconds), and webhook URLs on
// loopback are accepted (the receiver of the webhook benchmark listens on 127.0.0.1).
// Run as a child process by bench/lib/child.ts; argv[2] is the database file, or a PostgreSQL URL (then
// the PostgreSQL store with the pool `--pool-size` gives by default, as `socialpub-server start --db
// postgres://…` opens it: several of these processes on one URL are instances of one service); argv[3]
// (optional) the Node adapter to serve it with ("hono" or "socialpub"; the server's default without it).

import { openStore } from "../../packages/server/src/cli/open-store.ts";
import type { NodeAdapterName } from "../../packages/server/src/http/http-server.ts";
import { createLogger, startServer } from "../../packages/server/src/index.ts";
import { watchGarbageCollection } from "./gc-counters.ts";
import { memoryBreakdown } from "./memory-breakdown.ts";
import { serveParent } from "./serve-parent.ts";

const path = process.argv[2];
if (!path) throw new Error("usage: service-server.ts <database file | postgres://…> [hono|socialpub]");
const adapter = process.argv[3] as NodeAdapterName | undefined;

// As `socialpub-server start` opens it: for SQLite, the WAL checkpointed from a thread of its own.
const { store } = await openStore(path, { checkpointInBackground: true });
const server = await startServer({
  port: 0,
  store,
  logger: createLogger(),
  service: { rateLimit: false, allowPrivateWebhookUrls: true },
  ...(adapter && { adapter }),
});
const gcCounters = watchGarbageCollection();
serveParent(
  server.url,
  async () => {
    await server.close();
    await store.close();
  },
  // CPU time spent so far, in µs: per request, it is a figure the machine's other load barely moves.
  () => {
    const { user, system } = process.cpuUsage();
    const { heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    return {
      cpu_us: user + system,
      heap_total: heapTotal,
      heap_used: heapUsed,
      external,
      array_buffers: arrayBuffers,
      ...memoryBreakdown(),
      ...gcCounters(),
    };
  },
);
