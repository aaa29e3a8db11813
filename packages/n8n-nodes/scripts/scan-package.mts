// Runs the checks of n8n's community package scanner (@n8n/scan-community-package) on this package,
// the way n8n runs them before listing a package as verified: the ESLint rules over the source
// (package.json, nodes/, credentials/) and over the files `npm pack` would publish. The scanner itself
// fetches a published version from the registry; this script feeds it the local package instead.
// Run after `n8n-node build`.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { analyzePackage, SOURCE_FILE_PATTERNS } from "@n8n/scan-community-package/scanner/scanner.mjs";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

function packTarball(into: string): string {
  const output = execFileSync("npm", ["pack", "--json", "--pack-destination", into], {
    cwd: packageDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [packed] = JSON.parse(output) as Array<{ filename: string }>;
  if (!packed) throw new Error("npm pack produced no tarball");
  const extracted = join(into, "package");
  execFileSync("tar", ["-xzf", join(into, packed.filename), "-C", into]);
  return extracted;
}

async function main(): Promise<void> {
  if (!existsSync(join(packageDir, "dist"))) {
    console.error("dist/ is missing: run `n8n-node build` first.");
    process.exit(1);
  }
  const scratch = mkdtempSync(join(tmpdir(), "n8n-scan-"));
  try {
    const source = await analyzePackage(packageDir, SOURCE_FILE_PATTERNS);
    const published = await analyzePackage(packTarball(scratch), ["**/*.js", "package.json"]);
    let failed = false;
    for (const [leg, result] of [
      ["source", source],
      ["published files", published],
    ] as const) {
      if (result.passed) {
        console.log(`scanner, ${leg}: passed`);
      } else {
        failed = true;
        console.error(`scanner, ${leg}: ${result.message ?? "failed"}\n${result.details ?? ""}`);
      }
    }
    if (failed) process.exitCode = 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
