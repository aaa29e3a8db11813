// Starts the test peer: a real Bluesky PDS and PLC directory on loopback (pds-process.ts), in a child
// process running the Node.js and the PDS installed in the cache by `ci:prepare`. The adapter's tests,
// the service's end-to-end tests and the GitHub Action's tests all publish to it.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { AtpAgent } from "@atproto/api";
import { isPdsInstalled, PDS_INSTALL_COMMAND, pdsCacheDir, pdsNodeBinary } from "./pds-install-location.ts";

/**
 * True outside CI where the PDS is not installed (its install compiles a native module, which needs a
 * C++ toolchain): suites that publish to it are skipped, their titles saying why. In CI they run, and
 * fail saying how to install it.
 */
export const NO_PDS = process.env.CI !== "true" && !isPdsInstalled();

/** A suite's title, with why it is skipped when the PDS is not installed. */
export function needsPds(title: string): string {
  return NO_PDS ? `${title} (skipped: the Bluesky PDS is not installed; run ${PDS_INSTALL_COMMAND})` : title;
}

export interface BlueskyPeerOptions {
  /** Enforce the PDS's rate limits (createSession: 30 per 5 minutes per account). Default false. */
  rateLimits?: boolean;
  /** Where the PDS sends app.bsky.* reads it does not answer itself (an AppView). Default: nowhere. */
  appViewUrl?: string;
  /** How long to wait for the PDS to serve; default 90 s (a busy machine takes half a minute to load it). */
  startTimeoutMs?: number;
}

export interface PeerAccount {
  /** e.g. alice-1a2b.test */
  handle: string;
  did: string;
  email: string;
  /** The account's own password (can make and revoke app passwords). */
  password: string;
  /** An app password, what a user gives socialpub. */
  appPassword: string;
  appPasswordName: string;
}

export interface BlueskyPeer {
  /** The PDS's address, the `service` to connect accounts with, e.g. http://localhost:41234. */
  url: string;
  plcUrl: string;
  /** Creates an account (handle `<name>-<random>.test`) and an app password for it. */
  createAccount(name?: string): Promise<PeerAccount>;
  /** An agent logged in with the account's own password, to look at or change it as its owner. */
  ownerAgent(account: PeerAccount): Promise<AtpAgent>;
  stop(): Promise<void>;
}

const processFile = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "./pds-process.ts" : "./pds-process.js", import.meta.url),
);

/** Starts a PDS on a free loopback port. Fails, saying why, when the PDS is not installed. */
export async function startBlueskyPeer(options: BlueskyPeerOptions = {}): Promise<BlueskyPeer> {
  const cacheDir = pdsCacheDir();
  if (!isPdsInstalled(cacheDir)) {
    throw new Error(`The Bluesky PDS test peer is not installed in ${cacheDir}: run ${PDS_INSTALL_COMMAND}`);
  }
  const config = { cacheDir, rateLimits: options.rateLimits ?? false, appViewUrl: options.appViewUrl };
  const child = spawn(pdsNodeBinary(cacheDir), [processFile, JSON.stringify(config)], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, LOG_ENABLED: "false", NODE_OPTIONS: "" },
  });
  let stderrTail = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString("utf8")).slice(-4000);
  });
  const { url, plcUrl } = await waitForReady(child, options.startTimeoutMs ?? 90_000);
  let stopping = false;
  // A peer that dies mid-test shows up only as "fetch failed" in whatever called it: say why, here.
  child.once("exit", (code, signal) => {
    if (stopping) return;
    process.stderr.write(
      `The Bluesky PDS test peer exited unexpectedly (${signal ?? `code ${code}`}):\n${stderrTail}\n`,
    );
  });

  return {
    url,
    plcUrl,
    async createAccount(name = "user") {
      const suffix = randomBytes(3).toString("hex");
      const handle = `${name}-${suffix}.test`;
      const email = `${name}-${suffix}@example.com`;
      const password = randomBytes(12).toString("hex");
      const agent = new AtpAgent({ service: url });
      const { data } = await agent.createAccount({ email, handle, password });
      const appPasswordName = `socialpub-${suffix}`;
      const made = await agent.com.atproto.server.createAppPassword({ name: appPasswordName });
      return { handle, did: data.did, email, password, appPassword: made.data.password, appPasswordName };
    },
    async ownerAgent(account) {
      const agent = new AtpAgent({ service: url });
      await agent.login({ identifier: account.handle, password: account.password });
      return agent;
    },
    stop: () => {
      stopping = true;
      return stopChild(child);
    },
  };
}

function waitForReady(child: ChildProcess, timeoutMs: number): Promise<{ url: string; plcUrl: string }> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    let ready = false;
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(
        new Error(
          `The Bluesky PDS test peer did not start: ${why}${stderr ? `\n${stderr.slice(-2000)}` : ""}`,
        ),
      );
    };
    const timer = setTimeout(() => fail(`no answer within ${timeoutMs} ms`), timeoutMs);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4000);
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      if (ready) return; // keep draining the pipe, nothing more to read
      stdout += chunk.toString("utf8");
      for (const line of stdout.split("\n")) {
        if (!line.startsWith('{"url"')) continue;
        clearTimeout(timer);
        ready = true;
        stdout = "";
        child.removeAllListeners("exit");
        resolve(JSON.parse(line) as { url: string; plcUrl: string });
        return;
      }
    });
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code, signal) => fail(`it exited (${signal ?? `code ${code}`})`));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export { type FakeAppView, type PostCounts, startFakeAppView } from "./app-view.ts";
