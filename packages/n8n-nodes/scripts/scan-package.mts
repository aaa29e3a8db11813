// Runs the checks of n8n's community package scanner (@n8n/scan-community-package) on this package,
// the way n8n runs them before listing a package as verified: the ESLint rules over the source
// (package.json, nodes/, credentials/) and over the files `pnpm publish` would publish. The scanner
// itself fetches a published version from the registry; this script feeds it the local package
// instead. It also checks that the tarball holds only what n8n loads (the manifest, the README, the
// JavaScript, codex files and icons) and that its manifest names no workspace package.
// Run after `n8n-node build`.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { analyzePackage, SOURCE_FILE_PATTERNS } from "@n8n/scan-community-package/scanner/scanner.mjs";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

/** A file n8n loads, or that a package page shows. Anything else has no business in the tarball. */
const SHIPPED = /^(package\.json|README\.md|LICENSE|dist\/.+\.(js|node\.json|svg))$/;

// pnpm, as the package is published: it resolves workspace versions and applies the workspace's
// beforePacking hook (.pnpmfile.cjs), which drops the @socialpub/* development dependencies.
function packTarball(into: string): { extracted: string; files: string[] } {
  const output = execFileSync("pnpm", ["pack", "--json", "--pack-destination", into], {
    cwd: packageDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const packed = JSON.parse(output) as { filename: string; files: Array<{ path: string }> };
  execFileSync("tar", ["-xzf", packed.filename, "-C", into]);
  return { extracted: join(into, "package"), files: packed.files.map((file) => file.path) };
}

/** What is wrong with the packed files and manifest, one line each. */
function tarballProblems(extracted: string, files: string[]): string[] {
  const problems = files.filter((file) => !SHIPPED.test(file)).map((file) => `ships ${file}`);
  const manifest = readFileSync(join(extracted, "package.json"), "utf8");
  for (const name of new Set(manifest.match(/@socialpub\/[\w.-]+/g) ?? [])) {
    problems.push(`its package.json names the workspace package ${name}`);
  }
  return problems;
}

async function main(): Promise<void> {
  if (!existsSync(join(packageDir, "dist"))) {
    console.error("dist/ is missing: run `n8n-node build` first.");
    process.exit(1);
  }
  const scratch = mkdtempSync(join(tmpdir(), "n8n-scan-"));
  try {
    const source = await analyzePackage(packageDir, SOURCE_FILE_PATTERNS);
    const { extracted, files } = packTarball(scratch);
    const published = await analyzePackage(extracted, ["**/*.js", "package.json"]);
    let failed = false;
    const problems = tarballProblems(extracted, files);
    if (problems.length === 0) {
      console.log(`tarball: ${files.length} files, only what n8n loads`);
    } else {
      failed = true;
      console.error(`tarball: ${problems.join("; ")}`);
    }
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
