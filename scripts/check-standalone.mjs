#!/usr/bin/env node
// Fails when a tracked file would read something outside the repository at build, test or run time:
// a path into a `shared` folder beside the checkout (its spec, specs, docs or hooks), which a user's
// clone does not have. Documentation may name such folders; code, scripts and configuration may not.
// Plain JavaScript so .ci/run can call it before anything is installed.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

const CODE = /\.(?:[cm]?[jt]s|tsx|json|ya?ml|sh)$|^\.ci\/run$/;
// The contract's folders by name, and any relative path climbing to a `shared` folder.
const SHARED_FOLDERS = /\bshared\/(?:specs?|docs|hooks)\//;
const CLIMBS = /(?:\.\.\/)+shared\b/g;
// Bundles and lockfiles are generated; the check is about what we write.
const GENERATED = /(?:^|\/)dist\/|pnpm-lock\.yaml$/;

const root = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
const files = execFileSync("git", ["ls-files", "-z"], { encoding: "utf8" }).split("\0").filter(Boolean);
const offenders = [];
for (const file of files) {
  if (!CODE.test(file) || GENERATED.test(file) || file === "scripts/check-standalone.mjs") continue;
  const lines = readFileSync(file, "utf8").split("\n");
  lines.forEach((line, i) => {
    // `../shared` inside the repository (the n8n nodes' own nodes/shared/) is fine; above it is not.
    const climbsOut = [...line.matchAll(CLIMBS)].some(([path]) =>
      relative(root, resolve(root, dirname(file), path)).startsWith(".."),
    );
    if (climbsOut || SHARED_FOLDERS.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
  });
}
if (offenders.length > 0) {
  console.error(
    "These files reach outside the repository (a clone has no ../shared); copy what they need in:",
  );
  for (const offender of offenders) console.error(`  ${offender}`);
  process.exit(1);
}
console.log(
  `stands alone: no code, script or configuration among ${files.length} files reads outside the repository`,
);
