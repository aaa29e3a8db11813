// Builds and packs the publishable packages of the workspace, as `pnpm publish` would: publishConfig
// applied, `workspace:*` replaced by versions, only the `files` listed. Shared by scripts/check-packages.ts
// (publint and @arethetypeswrong/cli on each tarball) and the test that installs the tarballs with npm
// (packages/core/test/packed-install.test.ts).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = dirname(dirname(fileURLToPath(import.meta.url)));

export interface Publishable {
  /** The package's name on the registry. */
  name: string;
  /** Its folder under packages/. */
  dir: string;
  /** The commands that write what publishConfig points at, run in the package's folder. */
  build: string[][];
}

/**
 * Every package that is published, in dependency order. packages/github-action is private (it ships as a
 * committed bundle), n8n-nodes-socialpub is checked by its own `ci:check` (the n8n scanner) and is CommonJS.
 */
export const PUBLISHABLE: Publishable[] = [
  { name: "@socialpub/core", dir: "core", build: [["pnpm", "run", "build"]] },
  { name: "@socialpub/networks", dir: "networks", build: [["pnpm", "run", "build"]] },
  {
    name: "@socialpub/dashboard",
    dir: "dashboard",
    build: [
      ["node", "scripts/build.ts", "--if-changed"],
      ["pnpm", "run", "build:serve"],
    ],
  },
  { name: "@socialpub/server", dir: "server", build: [["pnpm", "run", "build"]] },
  { name: "@socialpub/mcp", dir: "mcp", build: [["pnpm", "run", "build"]] },
];

/** A publishable package by name. */
export function publishable(name: string): Publishable {
  const found = PUBLISHABLE.find((p) => p.name === name);
  if (!found) throw new Error(`${name} is not among the publishable packages`);
  return found;
}

function run(command: string[], cwd: string, quiet = false): void {
  const [program, ...args] = command as [string, ...string[]];
  const result = spawnSync(program, args, {
    cwd,
    stdio: ["ignore", quiet ? "ignore" : "inherit", "inherit"],
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command.join(" ")} in ${cwd} failed (exit ${result.status})`);
}

/** Builds and packs `packages` into `dest`; answers each package's tarball path by name. */
export function packPackages(dest: string, packages: Publishable[] = PUBLISHABLE): Map<string, string> {
  const tarballs = new Map<string, string>();
  for (const pkg of packages) {
    const dir = join(root, "packages", pkg.dir);
    for (const command of pkg.build) run(command, dir);
    const before = new Set(readdirSync(dest));
    run(["pnpm", "pack", "--pack-destination", dest], dir, true); // its stdout lists every file
    const made = readdirSync(dest).filter((file) => file.endsWith(".tgz") && !before.has(file));
    if (made.length !== 1)
      throw new Error(`packing ${pkg.name} made ${made.length} tarballs: ${made.join(", ")}`);
    tarballs.set(pkg.name, join(dest, made[0]!));
  }
  return tarballs;
}
