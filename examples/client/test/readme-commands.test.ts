import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.ts";

// The README's commands, run as a reader pastes them: from this folder, in one shell, against the
// server `npm start` runs (here one on port 0 and its own database, put in place of the address and
// database the README names). They go through scripts/toolchain.mjs exec, which must find the scripts
// in the folder it is called from.
const exampleDir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(`${exampleDir}README.md`, "utf8");
const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
});

describe("examples/client/README.md", () => {
  it("starts the server with npm start, from the repository root", () => {
    expect(blocks[0]).toBe("npm start\n");
  });

  it("its commands run as written from this folder", { timeout: 240_000 }, async () => {
    const origin = new URL(server.baseUrl).origin;
    const script = [
      "set -e",
      ...blocks
        .slice(1)
        .map((block) =>
          block.replaceAll("http://127.0.0.1:8787", origin).replaceAll("../../.data/socialpub.db", server.db),
        ),
    ].join("\n");
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      // Nothing of the test's environment but PATH, and the address the scripts default to 8787 for:
      // the commands must set the rest of what the scripts read.
      execFile(
        "sh",
        ["-c", script],
        {
          cwd: exampleDir,
          env: { PATH: process.env.PATH ?? "", SOCIALPUB_BASE_URL: server.baseUrl },
          timeout: 200_000,
        },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
        },
      );
    });
    const context = `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
    expect(result.code, context).toBe(0);
    expect(result.stdout, context).toMatch(/^Published post_\w+ at /m);
    expect(result.stdout, context).toMatch(/^Scheduled post_\w+ for /m);
  });
});
