import { type ServerProcess, startServerProcess } from "../../support/cli-process.ts";

export interface PublishingInstancesOptions {
  /** The database they share. */
  db: string;
  count: number;
  /** The folder for uploaded media, shared as a load balancer's instances would share it. */
  mediaDir: string;
  /** --publish-lease-ms: short, so a takeover happens within a test. */
  leaseMs: number;
  /** SOCIALPUB_SECRET_KEY, one for all: each must read the accounts' grants the others sealed. */
  secretKey: string;
}

/**
 * `count` server processes on one database that publish to local test peers (private URLs allowed),
 * started one after the other (each start holds a process slot).
 */
export async function startPublishingInstances(
  options: PublishingInstancesOptions,
): Promise<ServerProcess[]> {
  const servers: ServerProcess[] = [];
  for (let i = 0; i < options.count; i++) {
    servers.push(
      await startServerProcess(
        [
          "--db",
          options.db,
          "--media-dir",
          options.mediaDir,
          "--log-level",
          "error",
          "--allow-private-urls",
          "--publish-lease-ms",
          String(options.leaseMs),
          "--pool-size",
          "4",
        ],
        { SOCIALPUB_SECRET_KEY: options.secretKey },
      ),
    );
  }
  return servers;
}

/** Polls `check` every 50 ms until it holds; throws naming `what` after `timeoutMs`. Answers the wait. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
