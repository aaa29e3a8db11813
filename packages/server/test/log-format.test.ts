import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { provisionUser } from "@socialpub/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createLogger, type LogFormat, type LogLevel, logFormatFor } from "../src/logging.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { CLI, type ServerProcess, startServerProcess } from "./support/cli-process.ts";
import { tempDir } from "./support/temp-dir.ts";

const dir = tempDir("socialpub-log-format-");
afterAll(() => dir.remove());

const running: { server: RunningServer; store: SqliteStore }[] = [];
const processes: ServerProcess[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.store.close();
  }
  await Promise.all(processes.splice(0).map((p) => p.stop("SIGKILL")));
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Waits until `check` holds, polling: log lines are written when a response's connection closes. */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A built dashboard as small as it can be: its page and one file under /assets/. */
function dashboardDir(): string {
  const path = dir.file(`dashboard-${running.length}`);
  mkdirSync(`${path}/assets`, { recursive: true });
  writeFileSync(
    `${path}/index.html`,
    "<!doctype html><html><head><title>dashboard</title></head><body></body></html>",
  );
  writeFileSync(`${path}/assets/app.js`, "console.log('dashboard');");
  return path;
}

async function start(format: LogFormat, level: LogLevel = "info") {
  const lines: string[] = [];
  const logger = createLogger({ level, format, destination: { write: (line: string) => lines.push(line) } });
  const store = openSqliteStore(":memory:");
  const dev = await provisionUser(store, { plan: "studio", accounts: ["x"] });
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    store,
    logger,
    dashboard: { dir: dashboardDir() },
  });
  running.push({ server, store });
  const me = () =>
    fetch(`${server.url}/api/v1/me`, {
      headers: { authorization: `Bearer ${dev.apiKey}`, "x-request-id": "trace-me" },
    }).then((res) => res.text());
  return { server, lines, me, apiKey: dev.apiKey };
}

describe("readable logs", () => {
  it("pretty: a request is one line a person reads, method, path, status, duration and id", async () => {
    const { lines, me } = await start("pretty");
    await me();
    await waitFor(() => lines.some((line) => line.includes("trace-me")), "the request's line");
    const line = lines.find((l) => l.includes("trace-me"))!;
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*: GET \/api\/v1\/me 200 [\d.]+ ms trace-me\n$/);
    expect(() => JSON.parse(line)).toThrow();
  });

  it("pretty: credentials are still redacted, and an error keeps its stack", () => {
    const lines: string[] = [];
    const logger = createLogger({
      format: "pretty",
      destination: { write: (line: string) => lines.push(line) },
    });
    logger.info({ webhook: { secret: "whsec_abc" }, apiKey: "sp_test_def" }, "something happened");
    logger.error({ err: new Error("disk on fire") }, "unexpected error");
    const all = lines.join("");
    expect(all).not.toMatch(/whsec_abc|sp_test_def/);
    expect(lines[0]).toContain(
      'something happened {"webhook":{"secret":"[redacted]"},"apiKey":"[redacted]"}',
    );
    expect(lines[1]).toMatch(/ERROR.*: unexpected error[\s\S]*Error: disk on fire\n\s+at /);
  });

  for (const format of ["pretty", "json"] as const) {
    it(`${format}: the dashboard's files are logged at debug, the API's requests at info`, async () => {
      const { server, lines, me } = await start(format);
      for (const path of ["/", "/assets/app.js"]) {
        const res = await fetch(`${server.url}${path}`);
        expect(res.status).toBe(200);
        await res.text();
      }
      // A path that is neither the dashboard's nor the API's is still worth a line.
      expect((await fetch(`${server.url}/nothing-here`)).status).toBe(404);
      await me();
      await waitFor(() => lines.some((line) => line.includes("trace-me")), "the API request's line");
      await waitFor(() => lines.some((line) => line.includes("/nothing-here")), "the 404's line");
      expect(lines.join("")).not.toContain("/assets/app.js");
      expect(lines.filter((line) => / \/ 200|"path":"\/"/.test(line))).toEqual([]);
    });
  }

  it("the dashboard's files are written at debug level", async () => {
    const { server, lines } = await start("json", "debug");
    await (await fetch(`${server.url}/assets/app.js`)).text();
    await waitFor(() => lines.some((line) => line.includes("/assets/app.js")), "the file's line");
    expect(JSON.parse(lines.find((line) => line.includes("/assets/app.js"))!)).toMatchObject({
      level: 20,
      msg: "request",
      path: "/assets/app.js",
      status: 200,
    });
  });

  it("auto is pretty on a terminal and JSON otherwise", () => {
    expect(logFormatFor("auto", true)).toBe("pretty");
    expect(logFormatFor("auto", false)).toBe("json");
    expect(logFormatFor("json", true)).toBe("json");
    expect(logFormatFor("pretty", false)).toBe("pretty");
  });
});

describe("start's log format", () => {
  const args = ["--db", ":memory:", "--no-dashboard"];

  it("writes JSON lines when its output is a pipe, readable ones with --log-format pretty", async () => {
    const piped = await startServerProcess(args);
    processes.push(piped);
    await waitFor(() => /^\{.*"msg":"listening"/m.test(piped.output()), "the JSON listening line");

    const pretty = await startServerProcess([...args, "--log-format", "pretty"]);
    processes.push(pretty);
    await waitFor(
      () => /^\[[\d:.]+\] INFO.*: listening/m.test(pretty.output()),
      "the readable listening line",
    );
    expect(pretty.output()).not.toContain('"msg":"listening"');
  });

  it("writes readable lines when its output is a terminal", async () => {
    // `script` runs the server with a pseudo-terminal as its standard output, as a shell window does.
    const command = [process.execPath, CLI, "start", "--port", "0", ...args].map(shellWord).join(" ");
    const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    children.push(child);
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    await waitFor(() => /\] INFO.*: listening/.test(output), `a readable listening line, got: ${output}`);
    expect(output).not.toContain('"msg":"listening"');
  });
});

function shellWord(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}
