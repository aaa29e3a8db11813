// Checks each publishable package as it would be published: builds and packs it, then runs publint
// (package.json fields, exports and files against the tarball's contents; warnings fail too) and
// @arethetypeswrong/cli (types resolve for every entry) on the tarball. The packages are ESM only, so
// attw's `esm-only` profile leaves out CommonJS `require` and the node10 resolution, which they do not
// offer. Exits non-zero when any package fails, after checking them all.
//
//   node scripts/check-packages.ts
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packPackages, root } from "./pack-packages.ts";

const bin = (name: string) => join(root, "node_modules", ".bin", name);

const dest = mkdtempSync(join(tmpdir(), "socialpub-packs-"));
const failed: string[] = [];
try {
  for (const [name, tarball] of packPackages(dest)) {
    for (const [tool, args] of [
      ["publint", ["run", "--strict", tarball]],
      ["attw", ["--profile", "esm-only", "--format", "table-flipped", tarball]],
    ] as const) {
      console.log(`── ${tool} ${name}`);
      const result = spawnSync(bin(tool), args, { cwd: root, stdio: "inherit" });
      if (result.error) throw result.error;
      if (result.status !== 0) failed.push(`${tool} ${name}`);
    }
  }
} finally {
  rmSync(dest, { recursive: true, force: true });
}
if (failed.length > 0) {
  console.error(`failed: ${failed.join(", ")}`);
  process.exit(1);
}
console.log("every package passes publint and @arethetypeswrong/cli");
