import serverNodeFlags from "../../packages/server/node-flags.json" with { type: "json" };
import { type ChildServer, startChild } from "./child.ts";

const SERVICE_SERVER = new URL("./service-server.ts", import.meta.url);
const BARE_SERVER = new URL("./bare-server.ts", import.meta.url);

/**
 * Node options for the reference server: the ones its own start gives it (what is measured is what
 * users run), then any in BENCH_SERVER_FLAGS (space-separated), to measure an option a deployment may
 * add, e.g. `BENCH_SERVER_FLAGS=--heap-growing-percent=50 pnpm bench memory` (docs/deploy.md).
 */
export function serviceServerFlags(extra = process.env.BENCH_SERVER_FLAGS ?? ""): string[] {
  return [...serverNodeFlags.flags, ...extra.split(" ").filter(Boolean)];
}

/** The reference server on a SQLite file, in a process of its own (served by `adapter` when given). */
export function startServiceServer(
  dbPath: string,
  adapter?: "hono" | "socialpub",
  nodeFlags: readonly string[] = serviceServerFlags(),
): Promise<ChildServer> {
  return startChild(SERVICE_SERVER, adapter ? [dbPath, adapter] : [dbPath], nodeFlags);
}

/** The baseline: bare node:http answering every request with `body`, in a process of its own. */
export function startBareServer(body: string): Promise<ChildServer> {
  return startChild(BARE_SERVER, [body]);
}

/** Stops every server given, even when one fails to stop. */
export async function stopAll(...servers: (ChildServer | undefined)[]): Promise<void> {
  await Promise.allSettled(servers.map((s) => s?.stop()));
}
