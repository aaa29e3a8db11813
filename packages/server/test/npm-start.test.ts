import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import nodeFlags from "../node-flags.json" with { type: "json" };
import { withProcessSlot } from "./support/process-slots.ts";
import { tempDir } from "./support/temp-dir.ts";

// `npm start` as a newcomer runs it: npm → scripts/toolchain.mjs → node, in a process group of its
// own, as a terminal runs a foreground command. A terminal's Ctrl-C is SIGINT to that whole group.
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

const dirs: ReturnType<typeof tempDir>[] = [];
const groups: ChildProcess[] = [];
afterEach(() => {
  for (const child of groups.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
  }
  for (const dir of dirs.splice(0)) dir.remove();
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | string>;
}

/** `npm start -- <args>` with the dashboard off (no build, which the dashboard's own tests run). */
function npmStart(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Started> {
  return withProcessSlot(async () => {
    const child = spawn("npm", ["start", "--", "--no-dashboard", "--log-level", "warn", ...args], {
      cwd: repoRoot,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    groups.push(child);
    let output = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    const exited = once(child, "exit").then(([code, signal]) => (code ?? signal) as number | string);
    // Waits for the server's line, or for the chain to end first (a failure the test then reports).
    await new Promise<void>((resolve) => {
      const onData = () => {
        if (/listening on http:\/\/\S+/.test(output)) resolve();
      };
      child.stdout!.on("data", onData);
      exited.then(() => resolve());
    });
    return { child, output: () => output, exited };
  });
}

function newDb(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir.file("npm-start.db");
}

/** Every process below `pid` (Linux: /proc/<pid>/task/<tid>/children). */
function descendants(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(" ").filter(Boolean).map(Number),
  );
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
}

/** What npm and pnpm print when a script ends badly; a clean stop prints none of it. */
const FAILURE = /ELIFECYCLE|Command failed|npm error|ERR!|exiting at once/;

describe("npm start", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal} to the process group (a terminal's Ctrl-C sends SIGINT) stops the server and exits 0, quietly`, {
      timeout: 180_000,
    }, async () => {
      const started = await npmStart(["--port", "0", "--db", newDb()]);
      const url = /listening on (http:\/\/\S+)/.exec(started.output())?.[1];
      expect(url, started.output()).toBeDefined();
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      process.kill(-started.child.pid!, signal);
      expect(await started.exited, started.output()).toBe(0);
      expect(started.output()).not.toMatch(FAILURE);
    });
  }

  it("with no secret key set, makes one in the data folder and says where: webhook endpoints are registered with their secrets sealed", {
    timeout: 180_000,
  }, async () => {
    const db = newDb();
    const keyFile = join(dirname(db), "secret-key");
    const nothingSet = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("SOCIALPUB_")),
    );
    const started = await npmStart(["--port", "0", "--db", db], nothingSet);
    const url = /listening on (http:\/\/\S+)/.exec(started.output())?.[1];
    expect(url, started.output()).toBeDefined();
    expect(started.output()).toContain(`made one in ${keyFile}`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(started.output()).not.toContain(readFileSync(keyFile, "utf8").trim());
    const key = /^API key: (\S+)$/m.exec(started.output())![1]!;
    const created = await fetch(`${url}/api/v1/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ url: "http://127.0.0.1:9/hooks" }),
    });
    expect(created.status).toBe(201);
    process.kill(-started.child.pid!, "SIGTERM");
    expect(await started.exited, started.output()).toBe(0);
    const { secret } = (await created.json()) as { secret: string };
    expect(readFileSync(db).toString("latin1")).not.toContain(secret.slice("whsec_".length));
  });

  it("runs the server's Node with the options of packages/server/node-flags.json", {
    timeout: 180_000,
  }, async () => {
    const started = await npmStart(["--port", "0", "--db", newDb()]);
    const server = descendants(started.child.pid!)
      .map(commandLine)
      .find((args) => args.some((arg) => arg.endsWith("cli.ts")));
    expect(server, started.output()).toBeDefined();
    const cli = server!.findIndex((arg) => arg.endsWith("cli.ts"));
    expect(server!.slice(1, cli)).toEqual(nodeFlags.flags);
    process.kill(-started.child.pid!, "SIGTERM");
    expect(await started.exited, started.output()).toBe(0);
  });

  it("on a taken port fails at once, naming the port and how to pick another", {
    timeout: 180_000,
  }, async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const started = await npmStart(["--port", String(port), "--db", newDb()]);
      expect(await started.exited).not.toBe(0);
      expect(started.output()).toContain(`port ${port} is in use`);
      expect(started.output()).toContain("npm start -- --port N");
      expect(started.output()).not.toContain("API key:");
    } finally {
      holder.close();
    }
  });

  it("on a fresh clone with the port taken, says so before fetching or installing anything", {
    timeout: 60_000,
  }, async () => {
    // A clone with nothing fetched or installed yet (no .tools, no node_modules), and an npm and a pnpm
    // that only note they were called: whatever the wrapper would fetch or install first shows there.
    const clone = tempDir("socialpub-fresh-clone-");
    dirs.push(clone);
    for (const file of ["scripts/toolchain.mjs", ".nvmrc", "package.json", "pnpm-lock.yaml"]) {
      mkdirSync(dirname(clone.file(file)), { recursive: true });
      copyFileSync(join(repoRoot, file), clone.file(file));
    }
    const calls = clone.file("calls.log");
    const bin = clone.file("bin");
    mkdirSync(bin);
    for (const tool of ["npm", "pnpm"]) {
      writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "${calls}"\nexit 1\n`);
      chmodSync(join(bin, tool), 0o755);
    }
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          [clone.file("scripts/toolchain.mjs"), "start", "--port", String(port)],
          {
            cwd: clone.path,
            env: { ...process.env, PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin` },
          },
          (_error, stdout, stderr) => resolve({ code: child.exitCode, output: stdout + stderr }),
        );
      });
      expect(result.code, result.output).toBe(1);
      expect(result.output).toContain(`port ${port} is in use`);
      expect(result.output).toContain("npm start -- --port N");
      expect(existsSync(calls) ? readFileSync(calls, "utf8") : "", "nothing fetched or installed").toBe("");
      expect(existsSync(clone.file(".tools"))).toBe(false);
    } finally {
      holder.close();
    }
  });
});
