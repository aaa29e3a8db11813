// Builds the server into plain JavaScript for running in production:
//
//   pnpm --filter @socialpub/server bundle [outDir]     (default: packages/server/bundle/)
//   bundle/socialpub-server.js start                    (its shebang gives Node the server's options)
//
// The bundle holds the server, the workspace packages it uses and their libraries, and the dashboard's
// built page, so the folder can be copied anywhere Node 24 runs, without node_modules (docs/deploy.md).
// Why: run from its TypeScript sources, the server makes Node load its TypeScript stripper, about 17 MB
// of every process that imports a `.ts` file; the bundled server idles in about 37 MB less memory
// (docs/performance.md, "Memory").
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Plugin, rolldown } from "rolldown";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const dashboardDir = fileURLToPath(new URL("../../dashboard", import.meta.url));

/** Where the bundled dashboard assets module finds the page: beside the bundle, not in its package. */
const DASHBOARD_PAGE_DIR = "dashboard";

/**
 * The dashboard finds its built page relative to its own module (`new URL("../dist", import.meta.url)`);
 * in the bundle that module is a chunk in the output directory, where the page is copied under
 * `dashboard/`. Fails the build if the line is not there, rather than ship a server without its page.
 */
function dashboardPageBesideBundle(): Plugin {
  const from = 'new URL("../dist", import.meta.url)';
  return {
    name: "socialpub:dashboard-page-beside-bundle",
    transform(code, id) {
      if (!id.endsWith(join("dashboard", "serve", "assets.ts"))) return null;
      if (!code.includes(from)) throw new Error(`${id} no longer contains ${from}: update scripts/bundle.ts`);
      // Lines stay where they were, so the source map needs no change (`map: null` keeps it).
      return { code: code.replace(from, `new URL("./${DASHBOARD_PAGE_DIR}", import.meta.url)`), map: null };
    },
  };
}

/**
 * Bundles `input` (output name → source file) into `outDir` as ES modules for Node, the way the server's
 * bundle is built: shared code in chunks beside the entries, source maps beside each file. The benchmarks
 * run their server processes through this too (bench/lib/bundled.ts), so that they measure the server
 * as production runs it.
 */
export async function bundleModules(input: Record<string, string>, outDir: string): Promise<void> {
  const build = await rolldown({
    input,
    platform: "node",
    plugins: [dashboardPageBesideBundle()],
    onLog(level, log, handler) {
      // The live adapters are imported lazily by `start` and eagerly by the admin commands; in a bundle
      // both land in one chunk, which is what that warning says.
      if (log.code === "INEFFECTIVE_DYNAMIC_IMPORT") return;
      handler(level, log);
    },
  });
  try {
    await build.write({
      dir: outDir,
      format: "esm",
      entryFileNames: "[name].js",
      // Chunks beside the entries: the dashboard page is found relative to the chunk that reads it.
      chunkFileNames: "[name]-[hash].js",
      sourcemap: true,
    });
  } finally {
    await build.close();
  }
}

/**
 * The server's production bundle in `outDir`: the command line, the library, and the dashboard page.
 * `buildDashboard: false` copies the page as it is built already, for a caller that must not rebuild
 * it while other processes read it (the tests, whose setup builds it once).
 */
export async function bundle(outDir: string, { buildDashboard = true } = {}): Promise<void> {
  if (buildDashboard) {
    // Built from its own sources; a no-op when they have not changed since the last build.
    const page = spawnSync(process.execPath, ["scripts/build.ts", "--if-changed"], {
      cwd: dashboardDir,
      stdio: "inherit",
    });
    if (page.status !== 0) throw new Error(`building the dashboard exited with ${page.status}`);
  }
  const pageDir = join(dashboardDir, "dist");
  if (!existsSync(join(pageDir, "index.html"))) {
    throw new Error(`the dashboard is not built in ${pageDir}: run pnpm --filter @socialpub/dashboard build`);
  }

  rmSync(outDir, { recursive: true, force: true });
  await bundleModules(
    {
      // The command line, and the library (startServer, the stores) for programs that embed the server.
      "socialpub-server": join(packageDir, "src", "cli.ts"),
      index: join(packageDir, "src", "index.ts"),
    },
    outDir,
  );
  cpSync(pageDir, join(outDir, DASHBOARD_PAGE_DIR), { recursive: true });
  // The entry keeps src/cli.ts's shebang (with the server's Node options), so it runs as a command.
  chmodSync(join(outDir, "socialpub-server.js"), 0o755);
}

if (import.meta.main) {
  const outDir = resolve(packageDir, process.argv[2] ?? "bundle");
  await bundle(outDir);
  console.log(`bundled the server into ${outDir}`);
}
