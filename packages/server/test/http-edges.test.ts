import { connect } from "node:net";
import { type ProvisionedUser, provisionUser } from "@socialpub/core";
import { afterEach, describe, expect, it } from "vitest";
import type { HttpTimeouts } from "../src/http/http-server.ts";
import { createLogger } from "../src/logging.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite-store.ts";

/*
 * What the whole server (HTTP layer and service together) answers at the edges of HTTP: methods the
 * service does not serve, requests Node's parser refuses, clients that go away. Written against raw
 * sockets on a real server, so they hold whatever serves the HTTP underneath.
 */

interface Running {
  server: RunningServer;
  store: SqliteStore;
  dev: ProvisionedUser;
  logs(): Record<string, unknown>[];
}

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.store.close();
  }
});

async function start(timeouts?: Partial<HttpTimeouts>): Promise<Running> {
  const rawLogs: string[] = [];
  const logger = createLogger({ destination: { write: (line: string) => rawLogs.push(line) } });
  const store = openSqliteStore(":memory:");
  const dev = await provisionUser(store, { plan: "studio", accounts: ["x"] });
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    store,
    logger,
    dashboard: true,
    ...(timeouts && { timeouts }),
  });
  const r = { server, store, dev, logs: () => rawLogs.map((line) => JSON.parse(line)) };
  running.push(r);
  return r;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are and reads the first answer (the server closes or answers with a length). */
function rawRequest(origin: string, bytes: string | Buffer, options: { destroyAfterMs?: number } = {}) {
  const { hostname, port } = new URL(origin);
  return new Promise<RawAnswer>((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within 20 s; got: ${received.toString()}`));
    }, 20_000);
    const finish = (answer: RawAnswer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const tryParse = (ended: boolean) => {
      const text = received.toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      if (split === -1) {
        if (ended) reject(new Error(`the connection closed without an answer: ${JSON.stringify(text)}`));
        return;
      }
      const [statusLine, ...headerLines] = text.slice(0, split).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = received.subarray(Buffer.byteLength(text.slice(0, split + 4), "latin1"));
      const length = Number(headers["content-length"] ?? Number.NaN);
      if (Number.isFinite(length) ? body.byteLength >= length : ended) {
        finish({
          status: Number(statusLine!.split(" ")[1]),
          headers,
          body: body.subarray(0, Number.isFinite(length) ? length : undefined).toString("utf8"),
        });
      }
    };
    socket.on("data", (chunk) => {
      received = Buffer.concat([received, chunk]);
      tryParse(false);
    });
    socket.on("end", () => tryParse(true));
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(bytes);
    if (options.destroyAfterMs !== undefined) {
      setTimeout(() => {
        socket.destroy();
        clearTimeout(timer);
        reject(new Error("the client went away without an answer"));
      }, options.destroyAfterMs);
    }
  });
}

/** Waits until `check` holds, polling; for log lines written when a connection closes. */
async function waitFor(check: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectJsonError(answer: RawAnswer, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  expect(answer.headers["x-request-id"]).toMatch(/^req_/);
  const body = JSON.parse(answer.body);
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error).toEqual(expect.any(String));
  return body.error as string;
}

const serverErrors = (logs: Record<string, unknown>[]) => logs.filter((l) => (l.level as number) >= 50);

describe("methods the service does not serve", () => {
  it("TRACE and CONNECT on an API path: 405 with Allow, as for any other method, and nothing logged as an error", async () => {
    const { server, logs } = await start();
    for (const method of ["TRACE", "CONNECT", "PROPFIND", "PUT"]) {
      const answer = await rawRequest(server.url, `${method} /api/v1/posts HTTP/1.1\r\nHost: x\r\n\r\n`);
      const error = expectJsonError(answer, 405);
      expect(answer.headers.allow).toBe("GET, HEAD, POST");
      expect(error).toBe(`Method ${method} is not allowed on /api/v1/posts; allowed: GET, HEAD, POST.`);
    }
    const withId = await rawRequest(
      server.url,
      "TRACE /api/v1/posts/post_x HTTP/1.1\r\nHost: x\r\nX-Request-Id: trace-me\r\n\r\n",
    );
    expect(withId.status).toBe(405);
    // The same Allow the service gives any method it does not serve there.
    const propfind = await rawRequest(
      server.url,
      "PROPFIND /api/v1/posts/post_x HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    expect(withId.headers.allow).toMatch(/DELETE, GET, HEAD/);
    expect(withId.headers.allow).toBe(propfind.headers.allow);
    expect(withId.headers["x-request-id"]).toBe("trace-me");
    await waitFor(() => logs().filter((l) => l.msg === "request").length === 6, "six request lines");
    expect(serverErrors(logs())).toEqual([]);
  });

  it("a method served nowhere, on a path that does not exist: 501 (CONNECT to a host too)", async () => {
    const { server, logs } = await start();
    for (const [method, target] of [
      ["TRACE", "/nope"],
      ["PROPFIND", "/api/v1/nope"],
      ["CONNECT", "example.com:443"],
    ] as const) {
      const answer = await rawRequest(server.url, `${method} ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(expectJsonError(answer, 501)).toBe(
        `Method ${method} is not implemented; the API uses DELETE, GET, HEAD, PATCH, POST.`,
      );
    }
    // A method the API does use, on a path that does not exist, stays a 404.
    const missing = await rawRequest(server.url, "DELETE /api/v1/nope HTTP/1.1\r\nHost: x\r\n\r\n");
    expectJsonError(missing, 404);
    await waitFor(() => logs().filter((l) => l.msg === "request").length === 4, "four request lines");
    expect(serverErrors(logs())).toEqual([]);
  });

  it("the dashboard's page refuses TRACE with its own Allow", async () => {
    const { server } = await start();
    const answer = await rawRequest(server.url, "TRACE / HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(answer.status).not.toBe(500);
    expectJsonError(answer, answer.status);
    expect([405, 501]).toContain(answer.status);
  });
});

describe("requests Node's parser refuses get the same JSON error body", () => {
  it("400 for a malformed request line", async () => {
    const { server } = await start();
    expect(expectJsonError(await rawRequest(server.url, "GARBAGE\r\n\r\n"), 400)).toMatch(/not valid HTTP/);
  });

  it("431 for headers too large", async () => {
    const { server } = await start();
    const answer = await rawRequest(
      server.url,
      `GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(expectJsonError(answer, 431)).toMatch(/headers are too large/);
  });

  it("408 for headers that do not arrive in time", async () => {
    const { server } = await start({ headersMs: 300, requestMs: 600 });
    const answer = await rawRequest(server.url, "GET /api/v1/me HTTP/1.1\r\nHost: x\r\n");
    expect(expectJsonError(answer, 408)).toMatch(/did not arrive in time/);
  });
});

describe("a client that goes away mid-body", () => {
  it("is logged once, at info, as a 499 under the request's own id", async () => {
    const { server, dev, logs } = await start();
    await expect(
      rawRequest(
        server.url,
        `POST /api/v1/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${dev.apiKey}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"caption":',
        { destroyAfterMs: 200 },
      ),
    ).rejects.toThrow(/went away without an answer/);
    await waitFor(() => logs().some((l) => l.status === 499), "the 499 line");
    // Give a late error line the time it would need to appear.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(serverErrors(logs())).toEqual([]);
    const lines = logs().filter((l) => l.request_id !== undefined);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, method: "POST", path: "/api/v1/posts", status: 499 });
    expect(lines[0]!.request_id).toMatch(/^req_/);
  });
});
