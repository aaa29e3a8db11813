// Runs the real n8n installed by scripts/install-n8n.mts, headless, with its own user folder, database
// and ports, and this package installed from its packed tarball as a community package.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withProcessSlot } from "../../../../test-support/process-slots.ts";
import { n8nEntry, nodeBinary } from "../../scripts/n8n-install-location.mts";
import { installCommunityPackage } from "./community-package.mts";

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("could not find a free port");
  return address.port;
}

/** Ends a child process: SIGTERM, then SIGKILL if it is still there after `graceMs`. */
export async function stopProcess(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

export type RestClient = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: Record<string, unknown> }>;

export class N8n {
  readonly root: string;
  readonly port: number;
  /** n8n's own folder, `$N8N_USER_FOLDER/.n8n`: database, settings, community packages (nodes/). */
  readonly n8nFolder: string;
  private readonly env: NodeJS.ProcessEnv;
  private server: ChildProcess | undefined;
  private serverOutput = "";
  private ownerIsSetUp = false;

  private constructor(root: string, port: number, brokerPort: number, extraEnv: NodeJS.ProcessEnv) {
    this.root = root;
    this.port = port;
    this.n8nFolder = join(root, "user", ".n8n");
    this.env = {
      PATH: process.env.PATH,
      HOME: root,
      N8N_USER_FOLDER: join(root, "user"),
      N8N_COMMUNITY_PACKAGES_ENABLED: "true",
      N8N_ENCRYPTION_KEY: "socialpub-n8n-e2e-encryption-key",
      N8N_PORT: String(port),
      N8N_LISTEN_ADDRESS: "127.0.0.1",
      N8N_HOST: "127.0.0.1",
      N8N_PROTOCOL: "http",
      N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
      N8N_RUNNERS_BROKER_PORT: String(brokerPort),
      N8N_DIAGNOSTICS_ENABLED: "false",
      N8N_VERSION_NOTIFICATIONS_ENABLED: "false",
      N8N_TEMPLATES_ENABLED: "false",
      N8N_PERSONALIZATION_ENABLED: "false",
      N8N_SECURE_COOKIE: "false",
      N8N_LOG_LEVEL: "info",
      NO_COLOR: "1",
      ...extraEnv,
    };
  }

  /**
   * A fresh n8n home with the packed package `tarball` installed as a community package, as
   * Settings → Community Nodes installs it, or by `install` (given n8n's folder and the tarball); with
   * `tarball` null, n8n with its own nodes only. `extraEnv` adds to (or overrides) n8n's environment.
   */
  static async create(
    tarball: string | null,
    extraEnv: NodeJS.ProcessEnv = {},
    install: (n8nFolder: string, tarball: string) => void = installCommunityPackage,
  ): Promise<N8n> {
    const root = mkdtempSync(join(tmpdir(), "socialpub-n8n-"));
    const n8n = new N8n(root, await freePort(), await freePort(), extraEnv);
    mkdirSync(n8n.n8nFolder, { recursive: true });
    if (tarball !== null) install(n8n.n8nFolder, tarball);
    return n8n;
  }

  /** Runs one n8n CLI command to completion (n8n's commands take seconds: they boot the app). */
  run(args: string[], timeoutMs = 180_000): Promise<CommandResult> {
    return withProcessSlot(() => this.runNow(args, timeoutMs));
  }

  private runNow(args: string[], timeoutMs: number): Promise<CommandResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(nodeBinary(), [n8nEntry(), ...args], {
        env: this.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`n8n ${args[0]} did not finish within ${timeoutMs} ms.\n${stdout}\n${stderr}`));
      }, timeoutMs);
      child.once("error", reject);
      child.once("exit", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** Like run(), but a non-zero exit is an error carrying n8n's output. */
  async mustRun(args: string[], timeoutMs?: number): Promise<CommandResult> {
    const result = await this.run(args, timeoutMs);
    if (result.code !== 0) {
      throw new Error(
        `n8n ${args.join(" ")} exited with ${result.code}.\n${result.stdout}\n${result.stderr}`,
      );
    }
    return result;
  }

  /** Writes `data` as a JSON file in this n8n's folder and returns its path. */
  writeJson(name: string, data: unknown): string {
    const path = join(this.root, name);
    writeFileSync(path, JSON.stringify(data, null, 2));
    return path;
  }

  /**
   * Starts `n8n start` and waits until its HTTP server answers /healthz. n8n takes a minute or more to
   * start on a busy two-core machine, hence the room.
   */
  start(timeoutMs = 300_000): Promise<void> {
    // A slot until it is ready: a started n8n is idle, its boot is what costs.
    return withProcessSlot(() => this.startNow(timeoutMs));
  }

  private async startNow(timeoutMs: number): Promise<void> {
    const child = spawn(nodeBinary(), [n8nEntry(), "start"], {
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.server = child;
    this.serverOutput = "";
    const collect = (chunk: string) => {
      this.serverOutput += chunk;
    };
    child.stdout.setEncoding("utf8").on("data", collect);
    child.stderr.setEncoding("utf8").on("data", collect);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null)
        throw new Error(`n8n start exited with ${child.exitCode}.\n${this.serverOutput}`);
      try {
        const response = await fetch(`http://127.0.0.1:${this.port}/healthz/readiness`);
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await this.stop();
    throw new Error(`n8n did not become ready within ${timeoutMs} ms.\n${this.serverOutput}`);
  }

  /**
   * Sets up the instance owner through n8n's REST API, as its first-run page does (or signs in as that
   * owner when an earlier start set it up), and answers a client for `/rest/…` signed in as that owner
   * (n8n's auth cookie, bound to a browser id).
   */
  async signInOwner(): Promise<RestClient> {
    const base = `http://127.0.0.1:${this.port}`;
    const browserId = "socialpub-e2e-browser";
    const owner = { email: "owner@socialpub.test", password: "Socialpub-e2e-1" };
    const send = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "browser-id": browserId },
        body: JSON.stringify(body),
      });
    const setup = this.ownerIsSetUp
      ? await send("/rest/login", { emailOrLdapLoginId: owner.email, password: owner.password })
      : await send("/rest/owner/setup", { ...owner, firstName: "Social", lastName: "Pub" });
    if (!setup.ok) throw new Error(`n8n sign-in answered ${setup.status}: ${await setup.text()}`);
    this.ownerIsSetUp = true;
    const cookie = setup.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    return async (method, path, body) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { "content-type": "application/json", "browser-id": browserId, cookie },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
  }

  output(): string {
    return this.serverOutput;
  }

  async stop(): Promise<void> {
    if (this.server) await stopProcess(this.server);
    this.server = undefined;
  }

  /** Stops n8n if it runs and deletes its folder. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** The JSON that `n8n execute --rawOutput` prints after its log lines. */
export function parseRawOutput(stdout: string): {
  status: string;
  data: {
    resultData: {
      runData: Record<
        string,
        Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> }; error?: unknown }>
      >;
      error?: unknown;
    };
  };
} {
  // The result is pretty-printed: from a line holding only `{` to the next holding only `}`. n8n may log
  // a line after it (seen once, in a run of the whole file).
  const start = stdout.search(/^\{$/m);
  const end = start === -1 ? -1 : stdout.slice(start).search(/^\}$/m);
  if (end === -1) throw new Error(`n8n printed no execution result:\n${stdout}`);
  return JSON.parse(stdout.slice(start, start + end + 1));
}
