// Builds the page into dist/, which the reference server serves at `/`. Run by `pnpm serve` before the
// server starts, by CI's prepare step, and by the test setup, so the page is never stale.
import { build } from "vite";

const packageDir = new URL("..", import.meta.url);

export async function buildDashboard(): Promise<void> {
  await build({ configFile: new URL("vite.config.ts", packageDir).pathname, logLevel: "warn" });
}

if (import.meta.main) {
  await buildDashboard();
  console.log("dashboard built into packages/dashboard/dist/");
}
