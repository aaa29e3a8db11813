#!/usr/bin/env node
// Runs a project command with the toolchain it needs, fetching that toolchain first when the machine
// lacks it — the way a Gradle wrapper does. Plain JavaScript on purpose: it must start on Node 18+.
//
//   node scripts/toolchain.mjs start [...]  the reference server with --dev on ./.data/socialpub.db
//                                           (extra arguments go to `socialpub-server start`, e.g. --port N)
//   node scripts/toolchain.mjs test [...]   the whole test suite: first what the tests need (PostgreSQL, n8n,
//                                           the Bluesky PDS, Chromium; scripts/prepare-tests.ts), then
//                                           vitest (extra arguments go to vitest)
//   node scripts/toolchain.mjs env          prints `export PATH=…` for shells (used by .ci/run)
//   node scripts/toolchain.mjs exec -- CMD  runs CMD with Node 24 and pnpm first on PATH, in the folder
//                                           it was called from (so `exec -- node script.ts` finds the
//                                           script beside you, wherever the repository is)
//
// Node comes from the npm registry package node-<os>-<arch> at the version in .nvmrc; pnpm from the
// registry at the version in package.json's packageManager. Both land in .tools/ (git-ignored).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
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

/**
 * Builds the dashboard when its sources changed, then runs the server with this process as its only
 * wrapper (no pnpm, no shell: each layer between a terminal and the server is one more process that
 * Ctrl-C reaches and that may report the stop as a failure).
 *
 * The server runs in a process group of its own, so a terminal's Ctrl-C reaches it once, forwarded
 * from here, rather than twice (from the terminal and again from a wrapper), which the server would
 * take as "stop at once". Its IPC channel closes if this process dies, and the server then stops too.
 * A clean stop ends with the server's exit code, 0, and nothing printed here. package.json runs this
 * with `exec`, so the shell npm starts gives way to it: a shell waiting on a child when Ctrl-C arrives
 * re-raises the signal on itself once the child has ended, however cleanly, and npm then fails with 130.
 */
function startServer(args, env) {
  // No page to serve, nothing to build (the server reads the same flag and variable).
  const dashboardOff =
    args.includes("--no-dashboard") ||
    args.some((arg, i) => arg === "--dashboard=off" || (arg === "--dashboard" && args[i + 1] === "off")) ||
    (["off", "false", "0", "no"].includes((env.SOCIALPUB_DASHBOARD ?? "").trim().toLowerCase()) &&
      !args.some((arg) => arg.startsWith("--dashboard")));
  if (!dashboardOff) {
    const build = run("node", ["packages/dashboard/scripts/build.ts", "--if-changed"], { cwd: root, env });
    if (build !== 0) process.exit(build);
  }
  const server = spawn(
    "node",
    [
      ...serverNodeFlags(),
      "packages/server/src/cli.ts",
      "start",
      "--dev",
      "--db",
      "./.data/socialpub.db",
      ...args,
    ],
    {
      cwd: root,
      env,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      detached: !isWindows,
      shell: isWindows,
    },
  );
  // One Ctrl-C reaches this process twice, from the terminal and forwarded by npm: a repeat of the same
  // signal within half a second is that one stop, not a second "stop at once".
  let last = { signal: "", at: 0 };
  const forward = (signal) => {
    const now = Date.now();
    if (signal === last.signal && now - last.at < 500) return;
    last = { signal, at: now };
    if (server.exitCode === null && server.signalCode === null) server.kill(signal);
  };
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  process.on("SIGHUP", forward);
  server.on("error", (error) => {
    log(`cannot run the server: ${error.message}`);
    process.exit(1);
  });
  server.on("exit", (code, signal) => {
    process.exit(code ?? 128 + (signalNumbers[signal] ?? 1));
  });
}

/** The value of `--name V` or `--name=V` in `args` (the last one wins, as with the server's options). */
function optionValue(args, name) {
  let value;
  args.forEach((arg, i) => {
    if (arg === name && i + 1 < args.length) value = args[i + 1];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  });
  return value;
}

/**
 * Fails at once when the server could not listen on its port, before anything is fetched, installed or
 * built: on a fresh clone those take a while, and a taken port is the likeliest reason a start fails.
 * The host and port are the server's own (`--host`, `--port`, SOCIALPUB_HOST, SOCIALPUB_PORT, defaults
 * 127.0.0.1:8787) and the message is the one it prints. Anything this cannot judge (a port that is not
 * a number, a host that does not resolve, `--help`) is left to the server, which says what is wrong.
 */
async function checkPort(args, env) {
  if (args.some((arg) => arg === "--help" || arg === "-h")) return;
  const host = optionValue(args, "--host") ?? env.SOCIALPUB_HOST ?? "127.0.0.1";
  const portText = optionValue(args, "--port") ?? env.SOCIALPUB_PORT ?? "8787";
  if (!/^\d+$/.test(portText) || Number(portText) === 0 || Number(portText) > 65535) return;
  const port = Number(portText);
  const code = await new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (error) => resolve(error.code));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(null)));
  });
  const where = `${host}:${port}`;
  if (code === "EADDRINUSE") {
    process.stderr.write(
      `error: cannot listen on ${where}: port ${port} is in use (another server?); pick another with --port N (npm start -- --port N).\n`,
    );
    process.exit(1);
  }
  if (code === "EACCES") {
    process.stderr.write(`error: cannot listen on ${where}: permission denied; pick a port above 1023.\n`);
    process.exit(1);
  }
}

/** The Node options the server runs with, wherever it is started from (packages/server/node-flags.json says why). */
function serverNodeFlags() {
  return JSON.parse(readFileSync(join(root, "packages", "server", "node-flags.json"), "utf8")).flags;
}

const signalNumbers = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

async function main() {
  const [command = "test", ...rest] = process.argv.slice(2);
  // Before the toolchain and the dependencies: a taken port is said in a second, not after installing.
  if (command === "start") await checkPort(rest, process.env);
  const { env, dirs } = toolchainEnv();
  if (command === "env") {
    process.stdout.write(`export PATH="${dirs.join(delimiter)}${delimiter}$PATH"\n`);
    return;
  }
  installDependencies(env);
  switch (command) {
    case "start":
      startServer(rest, env);
      break;
    case "test": {
      // The preparation fails only in CI (CI=true) and only after saying what is missing; the tests run
      // either way, so a run reports everything at once.
      const prepared = run("node", ["scripts/prepare-tests.ts"], { cwd: root, env });
      const tested = run("pnpm", ["run", "test:run", ...rest], { cwd: root, env });
      process.exit(tested !== 0 ? tested : prepared);
      break;
    }
    case "exec": {
      const args = rest[0] === "--" ? rest.slice(1) : rest;
      if (args.length === 0) throw new Error("exec needs a command after --");
      process.exit(run(args[0], args.slice(1), { cwd: process.cwd(), env }));
      break;
    }
    default:
      log(`unknown command "${command}": use start, test, env or exec -- CMD`);
      process.exit(2);
  }
}

await main();
