// Runs the client's tests on the oldest Node.js that package.json's `engines` accepts (22.19, the floor
// undici 8 sets), so the range the package states is the range it is tested on. The tests run on the
// project's Node 24 everywhere else; this is `pnpm --filter @socialpub/core run ci:check`.
//
// That Node comes from the npm registry (the package node-<os>-<arch>, as scripts/toolchain.mjs fetches
// Node 24) into a cache folder outside the repository, shared by every clone on the machine:
// $XDG_CACHE_HOME/socialpub/node-<version> (~/.cache by default), installed once.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installOnce, npmInstallInto, run } from "../../../scripts/cache-install.mts";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const engines = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).engines.node as string;
const floor = /^>=(\d+\.\d+\.\d+)$/.exec(engines)?.[1];
if (!floor) {
  console.error(`packages/core/package.json engines.node is "${engines}": expected ">=X.Y.Z"`);
  process.exit(1);
}

/**
 * The test files that cover the client and its entry point. The README's examples are left out: they
 * are scripts Node runs as they are written, and they use `await using`, syntax Node has from 24 on
 * (TypeScript's compiler rewrites it for older targets; the README says so).
 */
const CLIENT_TESTS = ["test/client", "test/entry-points.test.ts"];
const LEFT_OUT = ["test/client/readme-examples.test.ts"];

const os = process.platform === "win32" ? "win" : process.platform;
const nodePackage = `node-${os}-${process.arch}`;
const cacheDir = join(
  process.env.SOCIALPUB_NODE_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "socialpub"),
  `node-${floor}`,
);
const nodeDirOf = (dir: string) => join(dir, "node_modules", nodePackage);
const nodeBinaryOf = (dir: string) =>
  process.platform === "win32" ? join(nodeDirOf(dir), "node.exe") : join(nodeDirOf(dir), "bin", "node");
const readyMarkerOf = (dir: string) => join(dir, ".socialpub-ready");

const isReady = (dir: string) => existsSync(readyMarkerOf(dir)) && existsSync(nodeBinaryOf(dir));

try {
  await installOnce({
    cacheDir,
    isReady,
    install: (dir) => {
      console.log(`Installing Node.js ${floor} into ${cacheDir} (about 190 MB)…`);
      npmInstallInto(dir, {
        packageJson: { name: "socialpub-node-cache", private: true },
        packages: [`${nodePackage}@${floor}`],
      });
      const version = run(nodeBinaryOf(dir), ["--version"], dir).trim();
      if (version !== `v${floor}`) throw new Error(`the installed Node.js says ${version}, not v${floor}`);
      writeFileSync(readyMarkerOf(dir), `${floor}\n`);
    },
    log: (message) => console.log(message),
  });
} catch (error) {
  console.error(`Installing Node.js ${floor} failed: ${(error as Error).message}`);
  process.exit(1);
}

const node = nodeBinaryOf(cacheDir);
const vitest = join(packageDir, "node_modules", "vitest", "vitest.mjs");
console.log(`$ node ${floor}: vitest run ${CLIENT_TESTS.join(" ")}`);
const result = spawnSync(
  node,
  [vitest, "run", ...CLIENT_TESTS, ...LEFT_OUT.map((file) => `--exclude=${file}`)],
  {
    cwd: packageDir,
    // The tests' own child processes (README examples, entry imports) run on this Node too: they start
    // process.execPath, and `node` on PATH is this one.
    env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ""}` },
    stdio: "inherit",
  },
);
if (result.error) throw result.error;
process.exit(result.status ?? 1);
