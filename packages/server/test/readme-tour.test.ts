import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProgram, type ServerProcess, startServerProcess } from "./support/cli-process.ts";
import { tempDir } from "./support/temp-dir.ts";

// The root README's tour, run as a reader pastes it: every `sh` block of "A short tour", in order, in
// one shell, from the repository root, against a real `start --dev` server. Only the address and the
// database the README names (npm start's) are swapped for this server's, so the tour cannot go stale:
// a fixed id, a key variable the blocks do not set, or a flag the service refuses fails here.
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const readme = readFileSync(`${repoRoot}README.md`, "utf8");

/** The `sh` blocks of a section (`## ` or deeper), in order. */
function shellBlocks(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`README has no "## ${heading}" section`);
  const rest = markdown.slice(start + heading.length);
  const end = rest.search(/\n#{2,3} /);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** Runs a script in `sh` from the repository root, holding a process slot. */
function runSh(script: string, env: NodeJS.ProcessEnv = process.env) {
  return runProgram("sh", ["-c", script], { cwd: repoRoot, env, timeoutMs: 180_000 });
}

/** The answer a block shows in a trailing `# {…}` comment, when it shows one. */
function shownAnswer(block: string): string | null {
  return /^# (\{.*\})$/m.exec(block)?.[1] ?? null;
}

const blocks = shellBlocks(readme, "## A short tour");
const dir = tempDir("socialpub-tour-");
const db = dir.file("tour.db");
let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess(["--dev", "--db", db, "--log-level", "warn"]);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  dir.remove();
});

describe("the README tour", () => {
  it("has the blocks the tour describes", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    // One name for the key everywhere.
    for (const block of blocks) expect(block).not.toMatch(/SOCIALPUB_API_KEY|sp_test_…/);
  });

  it("runs as written against a real server, each block answering what it says", {
    timeout: 240_000,
  }, async () => {
    const marker = (i: number) => `@@block ${i}@@`;
    const script = [
      "set -e",
      ...blocks.map((block, i) =>
        [
          `echo '${marker(i)}'`,
          block.replaceAll("http://127.0.0.1:8787", server.url).replaceAll("./.data/socialpub.db", db),
          // curl's answers end without a newline; the next marker starts on its own line.
          "echo",
        ].join("\n"),
      ),
    ].join("\n");
    const result = await runSh(script);
    const context = `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
    expect(result.code, context).toBe(0);

    const outputs = blocks.map((_, i) => {
      const from = result.stdout.indexOf(marker(i));
      const to = i + 1 < blocks.length ? result.stdout.indexOf(marker(i + 1)) : result.stdout.length;
      expect(from, context).toBeGreaterThanOrEqual(0);
      return result.stdout.slice(from + marker(i).length, to).trim();
    });
    for (const [i, block] of blocks.entries()) {
      const shown = shownAnswer(block);
      if (shown === null)
        expect(outputs[i], `block ${i + 1}:\n${block}\n${context}`).not.toMatch(/"error":"/);
      else expect(outputs[i], `block ${i + 1}:\n${block}`).toContain(shown);
    }
    // The first block's key is the dev user's; the publish answers as the JSON the README shows.
    expect(outputs[0]).toContain('"email":"dev@example.com"');
    const published = JSON.parse(outputs[1]!);
    const shownPost = JSON.parse(/```json\n([\s\S]*?)^```$/m.exec(readme)![1]!);
    expect(Object.keys(published).sort()).toEqual(Object.keys(shownPost).sort());
    expect(published).toMatchObject({ platforms: ["x", "bluesky"], status: "published" });
    // The targets of that very post (a fixed id would answer "Post not found.").
    expect(JSON.parse(outputs[2]!).data.map((t: { platform: string }) => t.platform)).toEqual([
      "x",
      "bluesky",
    ]);
  });

  it("the server README's administration block runs as written, on the server's database", {
    timeout: 240_000,
  }, async () => {
    const serverReadme = readFileSync(`${repoRoot}packages/server/README.md`, "utf8");
    const [block] = shellBlocks(serverReadme, "### Administration");
    expect(block).toBeDefined();
    // SOCIALPUB_DB, as a reader whose server runs elsewhere than ./.data would set it.
    const result = await runSh(`set -e\n${block}`, { ...process.env, SOCIALPUB_DB: db });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/^Revoked key key_\w+\.$/m);
    expect(result.stdout).toContain("Disconnected reddit for ana@example.com.");
  });
});
