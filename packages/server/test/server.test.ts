import { type ProvisionedUser, provisionUser } from "@socialpub/core";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, type LogLevel } from "../src/logging.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/sqlite-store.ts";

interface Running {
  server: RunningServer;
  store: SqliteStore;
  dev: ProvisionedUser;
  /** Every log line written so far, parsed. */
  logs(): Record<string, unknown>[];
  rawLogs: string[];
}

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.store.close();
  }
});

async function start(level: LogLevel = "info"): Promise<Running> {
  const rawLogs: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => rawLogs.push(line) } });
  const store = openSqliteStore(":memory:");
  const dev = await provisionUser(store, { plan: "studio", accounts: ["x"] });
  const server = await startServer({ host: "127.0.0.1", port: 0, store, logger });
  const r: Running = {
    server,
    store,
    dev,
    rawLogs,
    logs: () => rawLogs.map((line) => JSON.parse(line)),
  };
  running.push(r);
  return r;
}

/** Request lines are written when the response has gone out; give the 'close' event a moment. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("request logs", () => {
  it("one JSON line per request with its id, method, path, status and duration", async () => {
    const { server, dev, logs } = await start();
    const me = await fetch(`${server.url}/api/v1/me?verbose=1`, {
      headers: { authorization: `Bearer ${dev.apiKey}`, "x-request-id": "trace-42" },
    });
    await me.text();
    const missing = await fetch(`${server.url}/api/v1/posts/post_nope`, {
      headers: { authorization: `Bearer ${dev.apiKey}` },
    });
    await missing.text();
    await settle();

    const lines = logs().filter((l) => l.msg === "request");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 30,
      request_id: "trace-42",
      method: "GET",
      path: "/api/v1/me",
      status: 200,
    });
    expect(lines[1]).toMatchObject({
      request_id: missing.headers.get("x-request-id"),
      method: "GET",
      path: "/api/v1/posts/post_nope",
      status: 404,
    });
    for (const line of lines) expect(line.duration_ms).toEqual(expect.any(Number));
  });

  it("never writes an API key, valid or not", async () => {
    const { server, dev, rawLogs } = await start();
    const wrongKey = "sp_test_ThisKeyDoesNotExist000000000000000000";
    for (const key of [dev.apiKey, wrongKey]) {
      const res = await fetch(`${server.url}/api/v1/posts`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ caption: `posted with ${key}`, platforms: ["x"] }),
      });
      await res.text();
    }
    await settle();
    const all = rawLogs.join("");
    expect(all).toContain('"status":201');
    expect(all).toContain('"status":401');
    expect(all).not.toContain(dev.apiKey);
    expect(all).not.toContain(wrongKey);
  });

  it("--log-level warn leaves out request lines", async () => {
    const { server, dev, logs } = await start("warn");
    await (
      await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${dev.apiKey}` } })
    ).text();
    await settle();
    expect(logs().filter((l) => l.msg === "request")).toEqual([]);
  });

  it("redacts credentials wherever they appear in a logged object", () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => lines.push(line) } });
    logger.info(
      {
        headers: { authorization: "Bearer sp_test_abc" },
        webhook: { url: "https://example.com", secret: "whsec_abc" },
        apiKey: "sp_test_def",
      },
      "something happened",
    );
    expect(lines[0]).not.toMatch(/sp_test_abc|whsec_abc|sp_test_def/);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      headers: { authorization: "[redacted]" },
      webhook: { url: "https://example.com", secret: "[redacted]" },
      apiKey: "[redacted]",
    });
  });
});

describe("body limit", () => {
  it("answers 413 with an error body to a request body over 1 MiB", async () => {
    const { server, dev } = await start();
    const caption = "x".repeat(1024 * 1024);
    const res = await fetch(`${server.url}/api/v1/posts`, {
      method: "POST",
      headers: { authorization: `Bearer ${dev.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ caption, platforms: ["x"] }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(await res.json()).toEqual({ error: "Request body is larger than 1 MiB; send less." });
  });

  it("accepts a body just under 1 MiB", async () => {
    const { server, dev } = await start();
    // The longest caption, and a field the service ignores filling the rest of the 1 MiB.
    const caption = "y".repeat(100_000);
    const body = JSON.stringify({ caption, platforms: ["x"], padding: "" });
    const padding = "z".repeat(1024 * 1024 - body.length);
    const res = await fetch(`${server.url}/api/v1/posts`, {
      method: "POST",
      headers: { authorization: `Bearer ${dev.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ caption, platforms: ["x"], padding }),
    });
    expect(res.status).toBe(201);
    expect((await res.json()).caption).toHaveLength(caption.length);
  });
});
