// The package as n8n users get it: packed the way it is published (`pnpm pack`: the `files` of
// package.json, workspace versions resolved), then put where n8n keeps community packages, the way
// n8n's own installer does it (Settings → Community Nodes runs `npm pack <name>@<version>` in
// `<n8n folder>/nodes`, unpacks it into `nodes/node_modules/<name>`, drops the dev, peer and optional
// dependencies from its package.json and records it in `nodes/package.json`). At start n8n scans
// `nodes/node_modules/n8n-nodes-*` and names the nodes `<package name>.<node name>`.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** Packs `packageDir` (already built) into `into` and answers the tarball's path. */
export function packPackage(packageDir: string, into: string): string {
  const output = execFileSync("pnpm", ["pack", "--json", "--pack-destination", into], {
    cwd: packageDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { filename } = JSON.parse(output) as { filename: string };
  return filename;
}

/**
 * Installs the tarball as a community package of the n8n whose folder is `n8nFolder`
 * (`$N8N_USER_FOLDER/.n8n`) and answers its package name.
 */
export function installCommunityPackage(n8nFolder: string, tarball: string): string {
  const nodesDir = join(n8nFolder, "nodes");
  const manifest = JSON.parse(
    execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
  ) as PackageJson;
  const packageDir = join(nodesDir, "node_modules", manifest.name);
  mkdirSync(packageDir, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", packageDir, "--strip-components=1"]);

  const kept: PackageJson = { ...manifest };
  delete kept.devDependencies;
  delete kept.peerDependencies;
  delete kept.optionalDependencies;
  writeFileSync(join(packageDir, "package.json"), JSON.stringify(kept, null, 2));
  // n8n would now run `npm install` in the package folder for the runtime dependencies. This package
  // has none (verified community packages may not); refuse one that has rather than half-install it.
  if (Object.keys(kept.dependencies ?? {}).length > 0) {
    throw new Error(`${manifest.name} has runtime dependencies; n8n would install them with npm`);
  }

  // n8n loads the package without this file (it scans the folder at start), but its installer keeps
  // the list of installed packages here, and so does this.
  writeFileSync(
    join(nodesDir, "package.json"),
    JSON.stringify(
      { name: "installed-nodes", private: true, dependencies: { [manifest.name]: manifest.version } },
      null,
      2,
    ),
  );
  return manifest.name;
}

/**
 * The package's README route for an n8n that runs from npm or Docker: in an empty `<n8n folder>/nodes`,
 * `npm install --legacy-peer-deps <tarball>`. The flag keeps npm from installing the peer dependency
 * n8n-workflow (n8n provides its own; npm would fetch the latest, whose isolated-vm fails to build on
 * Node 20). Answers npm's output.
 */
export function installWithNpm(n8nFolder: string, tarball: string): string {
  const nodesDir = join(n8nFolder, "nodes");
  mkdirSync(nodesDir, { recursive: true });
  return execFileSync("npm", ["install", "--legacy-peer-deps", tarball], {
    cwd: nodesDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}
