import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  type BlueskyPeer,
  NO_PDS,
  needsPds,
  type PeerAccount,
  startBlueskyPeer,
} from "@socialpub/networks/bluesky/peer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, type ServerProcess, startServerProcess } from "./support/cli-process.ts";
import { tempDir } from "./support/temp-dir.ts";

/*
 * docs/networks.md's walkthrough, run as written: its shell blocks, in order, against a server started
 * as `npm start` starts it and a real Bluesky PDS on loopback. What differs from a user's machine is
 * replaced, and only that: the server's address (port 0 here), the CLI's path (the commands run in a
 * scratch folder, not the repository), the example account (one made on the PDS), and the PDS's
 * address, which is on loopback (SOCIALPUB_BLUESKY_SERVICE_URL; --allow-private-urls for the command,
 * as `npm start`'s --dev allows it for the server).
 */

const DOC = fileURLToPath(new URL("../../../docs/networks.md", import.meta.url));
const HEADING = "## From `npm start` to a post on Bluesky";

function walkthroughBlocks(): string[] {
  const doc = readFileSync(DOC, "utf8");
  const start = doc.indexOf(HEADING);
  expect(start, `docs/networks.md has the heading ${HEADING}`).toBeGreaterThan(-1);
  const end = doc.indexOf("\n## ", start + HEADING.length);
  const section = doc.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv, input = "") {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    // A reader's shell running the commands, without the start-up files of the machine running the tests.
    const { BASH_ENV: _, ...inherited } = process.env;
    const child = spawn("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", script], {
      cwd,
      env: { ...inherited, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

let peer: BlueskyPeer;
let alice: PeerAccount;
let server: ServerProcess | undefined;
const dir = tempDir();

beforeAll(async () => {
  peer = await startBlueskyPeer();
  alice = await peer.createAccount("alice");
}, 150_000);

afterAll(async () => {
  await server?.stop();
  await peer?.stop();
  dir.remove();
});

describe.skipIf(NO_PDS)(needsPds("docs/networks.md walkthrough"), () => {
  it("npm start → a live key → Bluesky connected with curl and with the command → published with curl → the real permalink", {
    timeout: 600_000,
  }, async () => {
    const blocks = walkthroughBlocks();
    expect(blocks).toHaveLength(5);
    const env = { SOCIALPUB_BLUESKY_SERVICE_URL: peer.url };
    const here = (text: string) =>
      text
        .replaceAll("node scripts/toolchain.mjs exec -- node packages/server/src/cli.ts", `node ${CLI}`)
        .replaceAll("accounts connect --live", "accounts connect --live --allow-private-urls")
        .replaceAll("alice.bsky.social", alice.handle)
        .replaceAll("abcd-efgh-ijkl-mnop", alice.appPassword);

    // The first block makes the key and starts the server; `npm start` runs `start --dev` on .data/socialpub.db.
    const [first, ...rest] = blocks;
    expect(first).toMatch(/^npm start$/m);
    const setUp = await bash(here(first!.replace(/^npm start$/m, "")), dir.path, env);
    expect(setUp).toMatchObject({ code: 0, stderr: "" });
    server = await startServerProcess(["--dev", "--db", dir.file(".data/socialpub.db")], {
      ...env,
      SOCIALPUB_SECRET_KEY_FILE: dir.file(".data/secret.key"),
    });

    const script = rest
      .map((block) => here(block).replaceAll("http://127.0.0.1:8787", server!.url))
      .join("\n");
    // The command asks for the app password; here it comes on standard input.
    const run = await bash(script, dir.path, env, `${alice.appPassword}\n`);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`{"platform":"bluesky","handle":"${alice.handle}"`);
    expect(run.stdout).toContain(`Reconnected live bluesky account ${alice.handle} for dev@example.com`);
    expect(run.stdout).toMatch(/"caption":"Hello from socialpub https:\/\/github.com"/);
    expect(run.stdout).not.toContain(alice.appPassword);

    // The last command, again until the network has answered (the publish-now wait may end first on a busy machine).
    const lastCommand = here(rest.at(-1)!)
      .replaceAll("http://127.0.0.1:8787", server.url)
      .split("| tee post.json\n")[1]!;
    let targets = run.stdout;
    for (let end = Date.now() + 60_000; !/"permalink":"https/.test(targets) && Date.now() < end; ) {
      await new Promise((r) => setTimeout(r, 500));
      targets = (await bash(lastCommand, dir.path, env)).stdout;
    }
    const permalink = /"permalink":"(https:\/\/bsky\.app\/profile\/[^"]+)"/.exec(targets)?.[1];
    expect(permalink, `targets: ${targets}\nwalkthrough output: ${run.stdout}`).toMatch(
      new RegExp(`^https://bsky.app/profile/${alice.handle}/post/[a-z2-7]{13}$`),
    );
    // The record is on the PDS, under the key the permalink names.
    const owner = await peer.ownerAgent(alice);
    const record = await owner.com.atproto.repo.getRecord({
      repo: alice.did,
      collection: "app.bsky.feed.post",
      rkey: permalink!.split("/").pop()!,
    });
    expect((record.data.value as { text: string }).text).toBe("Hello from socialpub https://github.com");
  });
});
