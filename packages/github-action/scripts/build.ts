// Bundles the action into one file with ncc: `node scripts/build.ts [outDir]` (default dist/).
// A runner executes dist/index.js as it is committed, with no install step, so everything it imports
// (the ESM-only @actions packages and @socialpub/core included) must be inside the bundle.
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

export function build(outDir: string): void {
  const ncc = join(packageDir, "node_modules", ".bin", "ncc");
  const result = spawnSync(
    ncc,
    ["build", "src/index.ts", "--out", outDir, "--license", "licenses.txt", "--no-cache", "--quiet"],
    {
      cwd: packageDir,
      stdio: "inherit",
    },
  );
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`ncc exited with ${result.status}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  build(resolve(packageDir, process.argv[2] ?? "dist"));
}
