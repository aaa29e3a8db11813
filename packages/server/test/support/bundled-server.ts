import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import nodeFlags from "../../node-flags.json" with { type: "json" };
import { bundle } from "../../scripts/bundle.ts";
import { type ServerProcess, startListeningProcess } from "./cli-process.ts";

const DASHBOARD_PAGE = fileURLToPath(new URL("../../../dashboard/dist/index.html", import.meta.url));

/**
 * The production build (`pnpm --filter @socialpub/server bundle`) into `outDir`, with the dashboard page
 * as the dashboard's test setup built it before any test started: rebuilding it here would empty
 * packages/dashboard/dist/ under the dashboard's own tests, which serve it. Built here only when nothing
 * built it (the server's tests run alone on a fresh checkout).
 */
export function buildBundle(outDir: string): Promise<void> {
  return bundle(outDir, { buildDashboard: !existsSync(DASHBOARD_PAGE) });
}

/**
 * `socialpub-server.js start --dev` from the bundle in `bundleDir`, with the server's Node options, on
 * any port, logging warnings only; `args` adds the database and the rest.
 */
export function startBundledServer(
  bundleDir: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<ServerProcess> {
  return startListeningProcess(
    [
      ...nodeFlags.flags,
      join(bundleDir, "socialpub-server.js"),
      "start",
      "--dev",
      "--port",
      "0",
      "--log-level",
      "warn",
      ...args,
    ],
    env,
  );
}
