import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleModules } from "../../packages/server/scripts/bundle.ts";

/*
 * Every process a benchmark starts runs as plain JavaScript, bundled as the server's production build
 * is (`pnpm --filter @socialpub/server bundle`, docs/deploy.md): what is measured is what production
 * runs, without Node's TypeScript stripper (about 17 MB of every process that loads a `.ts` file) or
 * the compilation of each source module on its own. The baselines (bare node:http, the webhook
 * receiver) are bundled the same way, so both sides of a ratio start alike.
 */

const bundles = new Map<string, Promise<URL>>();
let root: string | undefined;

/** `script` bundled into a folder removed when this process exits; each script is bundled once per run. */
export function bundledScript(script: URL): Promise<URL> {
  const source = fileURLToPath(script);
  let bundle = bundles.get(source);
  if (!bundle) {
    bundle = bundleOnce(source);
    bundles.set(source, bundle);
  }
  return bundle;
}

async function bundleOnce(source: string): Promise<URL> {
  if (!root) {
    root = mkdtempSync(join(tmpdir(), "socialpub-bench-bundles-"));
    const made = root;
    process.once("exit", () => rmSync(made, { recursive: true, force: true }));
  }
  const outDir = mkdtempSync(join(root, `${basename(source, ".ts")}-`));
  await bundleModules({ main: source }, outDir);
  return pathToFileURL(join(outDir, "main.js"));
}
