import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ProvisionedUser, provisionUser } from "@socialpub/core";
import { afterEach, describe, expect, it } from "vitest";
import type { HttpTimeouts } from "../src/http/http-server.ts";
import { createLogger } from "../src/logging.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/sqlite-store.ts";

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
function rawRequest(
  origin: string,
  bytes: string | Buffer,
  options: { destroyAfterMs?: number; end?: boolean; timeoutMs?: number } = {},
) {
  const { hostname, port } = new URL(origin);
  return new Promise<RawAnswer>((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    const timeoutMs = options.timeoutMs ?? 20_000;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs / 1000} s; got: ${received.toString()}`));
    }, timeoutMs);
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
    // The client's half-close: it sends no more, and still reads the answer.
    if (options.end) socket.end();
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

describe("request bodies", () => {
  const MiB = 1024 * 1024;

  it("an unauthenticated request is answered 401 from its headers, before its body has arrived", async () => {
    const { server } = await start();
    // 60 clients each declare a 1 MiB body, send its first 16 KiB and wait: none of them is held
    // until its body is complete (or buffered whole in the meantime).
    const head =
      "POST /api/v1/posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
      `Content-Length: ${MiB}\r\n\r\n`;
    const first = Buffer.concat([Buffer.from(head), Buffer.alloc(16 * 1024, "a")]);
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => rawRequest(server.url, first, { timeoutMs: 10_000 })),
    );
    for (const answer of answers) {
      expect(expectJsonError(answer, 401)).toBe("Invalid or revoked API key.");
      expect(answer.headers["www-authenticate"]).toBe("Bearer");
    }
  });

  /**
   * Sends the head of a request and the first part of its body, reads the answer, then sends the rest
   * of the body: what a client writing a large body sees when the server answers before reading it.
   */
  function answerThenRest(origin: string, head: string, bodySize: number) {
    const { hostname, port } = new URL(origin);
    return new Promise<{ answer: string; writeError: string | null; closedBy: "end" | "error" }>(
      (resolve, reject) => {
        const socket = connect(Number(port), hostname);
        let received = "";
        let writeError: string | null = null;
        let sentRest = false;
        const timer = setTimeout(() => {
          socket.destroy();
          reject(new Error(`the server neither answered nor closed within 15 s; got: ${received}`));
        }, 15_000);
        socket.on("data", (chunk) => {
          received += chunk.toString("latin1");
          if (!sentRest && received.includes("\r\n\r\n")) {
            sentRest = true;
            socket.write(Buffer.alloc(bodySize - 64 * 1024, "b"), (error) => {
              if (error) writeError = (error as NodeJS.ErrnoException).code ?? error.message;
            });
          }
        });
        socket.on("end", () => {
          clearTimeout(timer);
          socket.end();
          resolve({ answer: received, writeError, closedBy: "end" });
        });
        socket.on("error", (error: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          resolve({
            answer: received,
            writeError: writeError ?? error.code ?? error.message,
            closedBy: "error",
          });
        });
        socket.write(Buffer.concat([Buffer.from(head), Buffer.alloc(64 * 1024, "a")]));
      },
    );
  }

  it("413: the server reads and discards the rest of the body, so a client still sending reads the answer", async () => {
    const { server, dev } = await start();
    const head =
      `POST /api/v1/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${dev.apiKey}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${2 * MiB}\r\n\r\n`;
    const result = await answerThenRest(server.url, head, 2 * MiB);
    expect(result.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.answer.toLowerCase()).toContain("connection: close");
    expect(result.answer).toContain('{"error":"Request body is larger than 1 MiB; send less."}');
    // The whole body went out, and the server closed its side in order (FIN), not with a reset.
    expect(result.writeError).toBeNull();
    expect(result.closedBy).toBe("end");
  });

  it("401 to a body too large, unauthenticated: the same orderly close", async () => {
    const { server } = await start();
    const head =
      "POST /api/v1/posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
      `Content-Length: ${2 * MiB}\r\n\r\n`;
    const result = await answerThenRest(server.url, head, 2 * MiB);
    expect(result.answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(result.writeError).toBeNull();
    expect(result.closedBy).toBe("end");
  });

  it("413 with its JSON error reaches Node's fetch every time, one at a time and 8 in parallel", async () => {
    const { server, dev } = await start();
    const body = Buffer.alloc(2 * MiB, "x");
    const post = async () => {
      const res = await fetch(`${server.url}/api/v1/posts`, {
        method: "POST",
        headers: { authorization: `Bearer ${dev.apiKey}`, "content-type": "application/json" },
        body,
      });
      return { status: res.status, body: await res.json() };
    };
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post());
    for (let round = 0; round < 3; round++)
      answers.push(...(await Promise.all(Array.from({ length: 8 }, post))));
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 413,
        body: { error: "Request body is larger than 1 MiB; send less." },
      });
    }
  });

  it.skipIf(spawnSync("curl", ["--version"]).status !== 0)(
    "413 with its JSON error reaches curl every time",
    async () => {
      const { server, dev } = await start();
      const dir = mkdtempSync(join(tmpdir(), "socialpub-413-"));
      const file = join(dir, "body.json");
      writeFileSync(file, Buffer.alloc(2 * MiB, "x"));
      try {
        const curl = () =>
          new Promise<string>((resolve, reject) =>
            execFile(
              "curl",
              [
                "-sS",
                "-w",
                "\n%{http_code}",
                "-H",
                `Authorization: Bearer ${dev.apiKey}`,
                "-H",
                "Content-Type: application/json",
                "--data-binary",
                `@${file}`,
                `${server.url}/api/v1/posts`,
              ],
              (error, stdout, stderr) =>
                error ? reject(new Error(`${error.message}: ${stderr}`)) : resolve(stdout),
            ),
          );
        const outputs = await Promise.all(Array.from({ length: 6 }, curl));
        for (let i = 0; i < 4; i++) outputs.push(await curl());
        for (const output of outputs) {
          expect(output).toBe('{"error":"Request body is larger than 1 MiB; send less."}\n413');
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("a body the client cuts short is 400, naming the body", async () => {
    const { server, dev } = await start();
    const answer = await rawRequest(
      server.url,
      `POST /api/v1/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${dev.apiKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"caption":',
      { end: true },
    );
    expect(expectJsonError(answer, 400)).toBe(
      "The request body ended before it was complete; send the whole body.",
    );
  });
});

describe("HTTP/1.0", () => {
  it("a request without Host is served (HTTP/1.0 does not require it)", async () => {
    const { server, dev } = await start();
    const answer = await rawRequest(
      server.url,
      `GET /api/v1/me HTTP/1.0\r\nAuthorization: Bearer ${dev.apiKey}\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).id).toBe(dev.user.id);
  });
});
