// Builds the page into dist/, which the reference server serves at `/`. Run by `npm start` before the
// server starts (with --if-changed), by the tests' preparation (--if-changed too), and by the test setup, so the page is never
// stale.
//
//   node scripts/build.ts               always builds
//   node scripts/build.ts --if-changed  builds only when the page's sources changed since the last build
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { buildIfChanged } from "./build-if-changed.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** The build's inputs: the page, its config, and what it bundles — @socialpub/core's source and the
 * locked versions of vite, preact and the rest. */
export const DASHBOARD_INPUTS = [
  "packages/dashboard/index.html",
  "packages/dashboard/vite.config.ts",
  "packages/dashboard/package.json",
  "packages/dashboard/src",
  "packages/dashboard/public",
  "packages/core/package.json",
  "packages/core/src",
  "pnpm-lock.yaml",
].map((path) => join(repoRoot, path));

/** Beside the built files; dist/ is emptied by each build, and files starting with "." are not served. */
export const DASHBOARD_STAMP = join(packageDir, "dist", ".source-hash");

export async function buildDashboard(): Promise<void> {
  await build({ configFile: join(packageDir, "vite.config.ts"), logLevel: "warn" });
}

if (import.meta.main) {
  if (process.argv.includes("--if-changed")) {
    const result = await buildIfChanged({
      inputs: DASHBOARD_INPUTS,
      root: repoRoot,
      stampFile: DASHBOARD_STAMP,
      build: buildDashboard,
    });
    console.log(
      result === "built"
        ? "dashboard built into packages/dashboard/dist/"
        : "dashboard unchanged since its last build (packages/dashboard/dist/)",
    );
  } else {
    await buildDashboard();
    console.log("dashboard built into packages/dashboard/dist/");
  }
}
