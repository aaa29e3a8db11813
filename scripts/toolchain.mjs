#!/usr/bin/env node
// Runs a project command with the toolchain it needs, fetching that toolchain first when the machine
// lacks it — the way a Gradle wrapper does. Plain JavaScript on purpose: it must start on Node 18+.
//
//   node scripts/toolchain.mjs start        the reference server with --dev on ./.data/socialpub.db
//   node scripts/toolchain.mjs test [...]   the whole test suite (extra arguments go to vitest)
//   node scripts/toolchain.mjs env          prints `export PATH=…` for shells (used by .ci/run)
//   node scripts/toolchain.mjs exec -- CMD  runs CMD with Node 24 and pnpm first on PATH
//
// Node comes from the npm registry package node-<os>-<arch> at the version in .nvmrc; pnpm from the
// registry at the version in package.json's packageManager. Both land in .tools/ (git-ignored).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const toolsDir = join(root, ".tools");
const wantedNode = readFileSync(join(root, ".nvmrc"), "utf8").trim();
const wantedNodeMajor = Number(wantedNode.split(".")[0]);
const packageManager = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager;
const wantedPnpm = packageManager.split("@")[1];
const isWindows = process.platform === "win32";

function log(message) {
  process.stderr.write(`[toolchain] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", shell: isWindows, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function npmInstall(prefix, spec) {
  log(`installing ${spec} into ${prefix}`);
  const status = run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", prefix, spec], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (status !== 0) throw new Error(`npm install ${spec} failed (exit ${status})`);
}

function nodeBinDir() {
  const currentMajor = Number(process.versions.node.split(".")[0]);
  if (currentMajor >= wantedNodeMajor) return dirname(process.execPath);
  const os = isWindows ? "win" : process.platform;
  const pkg = `node-${os}-${process.arch}`;
  const pkgDir = join(toolsDir, "node", "node_modules", pkg);
  const bin = isWindows ? pkgDir : join(pkgDir, "bin");
  if (!existsSync(join(bin, isWindows ? "node.exe" : "node"))) {
    npmInstall(join(toolsDir, "node"), `${pkg}@${wantedNode}`);
  }
  return bin;
}

function pnpmBinDir() {
  const prefix = join(toolsDir, "pnpm");
  const bin = join(prefix, "node_modules", ".bin");
  const installed = join(prefix, "node_modules", "pnpm", "package.json");
  const version = existsSync(installed) ? JSON.parse(readFileSync(installed, "utf8")).version : null;
  if (version !== wantedPnpm) npmInstall(prefix, `pnpm@${wantedPnpm}`);
  return bin;
}

function toolchainEnv() {
  const dirs = [nodeBinDir(), pnpmBinDir()];
  const env = { ...process.env, PATH: [...dirs, process.env.PATH].join(delimiter) };
  // The machine's npm config may point native builds at older Node headers; the fetched Node has its own.
  delete env.npm_config_nodedir;
  delete env.NPM_CONFIG_NODEDIR;
  return { env, dirs };
}

function installDependencies(env) {
  const marker = join(root, "node_modules", ".modules.yaml");
  const lockfile = join(root, "pnpm-lock.yaml");
  const fresh = existsSync(marker) && statSync(marker).mtimeMs >= statSync(lockfile).mtimeMs;
  if (fresh) return;
  log("installing dependencies with the frozen lockfile");
  const status = run("pnpm", ["install", "--frozen-lockfile"], { cwd: root, env });
  if (status !== 0) process.exit(status);
}

function main() {
  const [command = "test", ...rest] = process.argv.slice(2);
  const { env, dirs } = toolchainEnv();
  if (command === "env") {
    process.stdout.write(`export PATH="${dirs.join(delimiter)}${delimiter}$PATH"\n`);
    return;
  }
  installDependencies(env);
  switch (command) {
    case "start":
      process.exit(run("pnpm", ["run", "serve", ...rest], { cwd: root, env }));
      break;
    case "test":
      process.exit(run("pnpm", ["run", "test:unit", ...rest], { cwd: root, env }));
      break;
    case "exec": {
      const args = rest[0] === "--" ? rest.slice(1) : rest;
      if (args.length === 0) throw new Error("exec needs a command after --");
      process.exit(run(args[0], args.slice(1), { cwd: root, env }));
      break;
    }
    default:
      log(`unknown command "${command}": use start, test, env or exec -- CMD`);
      process.exit(2);
  }
}

main();
