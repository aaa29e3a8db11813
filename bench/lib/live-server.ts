// The server under test with live keys, as `socialpub-server start` runs it, its Discord and Telegram
// pointed at the benchmark's stand-ins: startServer on a SQLite file or a PostgreSQL URL (argv[2]), its
// scheduler armed, live adapters from the same addresses the environment gives the server
// (SOCIALPUB_DISCORD_API_URL, SOCIALPUB_TELEGRAM_API_URL), live credentials sealed with the key in
// SOCIALPUB_SECRET_KEY, publishes at once from SOCIALPUB_PUBLISH_CONCURRENCY. The per-key rate limit is off (the benchmark seeds thousands of posts through
// the API), and addresses on loopback are accepted (--allow-private-urls: the fake is on 127.0.0.1). Run as a child process by bench/lib/child.ts.
import { CredentialKeyring, parseSecretKey } from "../../packages/core/src/index.ts";
import { openStore } from "../../packages/server/src/cli/open-store.ts";
import { createLogger, startServer } from "../../packages/server/src/index.ts";
import { networkAdapters, networkSettingsFromEnv } from "../../packages/server/src/live/network-adapters.ts";
import { serveParent } from "./serve-parent.ts";

const path = process.argv[2];
if (!path) throw new Error("usage: live-server.ts <database file | postgres://…>");
const secret = process.env.SOCIALPUB_SECRET_KEY;
if (!secret) throw new Error("live-server.ts needs SOCIALPUB_SECRET_KEY");

const { store } = await openStore(path, { checkpointInBackground: true });
const server = await startServer({
  port: 0,
  store,
  logger: createLogger({ level: "warn" }),
  service: {
    rateLimit: false,
    // The fake listens on 127.0.0.1, as the server's --allow-private-urls lets a test network do.
    allowPrivateWebhookUrls: true,
    liveAdapters: networkAdapters(networkSettingsFromEnv()),
    credentialKeyring: new CredentialKeyring(parseSecretKey(secret)),
    // As `socialpub-server start` reads it: publishes at once (256 unless set).
    ...(process.env.SOCIALPUB_PUBLISH_CONCURRENCY && {
      publishing: { concurrency: Number(process.env.SOCIALPUB_PUBLISH_CONCURRENCY) },
    }),
  },
});
serveParent(
  server.url,
  async () => {
    await server.close();
    await store.close();
  },
  () => {
    const { user, system } = process.cpuUsage();
    return { cpu_us: user + system, heap_used: process.memoryUsage().heapUsed };
  },
);
