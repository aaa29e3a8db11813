import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useFigures } from "../support/figures.ts";
import { call } from "../support/http.ts";
import { type InProcessServer, startInProcessServer } from "../support/in-process-server.ts";
import { STORE_NAME } from "../support/store.ts";

const figures = useFigures("slow clients and oversized bodies");

/** Short limits, so a client that is too slow is cut off within the test. */
const TIMEOUTS = { headersMs: 400, requestMs: 800, keepAliveMs: 400 };
/** How long a test waits for the server to act before it fails: far beyond the limits above. */
const GIVE_UP_MS = 20_000;

let target: InProcessServer;
let key: string;

beforeAll(async () => {
  target = await startInProcessServer({ timeouts: TIMEOUTS });
  key = (await target.user()).key;
});
afterAll(async () => {
  await target?.close();
});

interface RawClient {
  socket: Socket;
  /** Everything the server sent. */
  received: () => string;
  /** Bytes this client wrote. */
  written: () => number;
  write(data: string | Buffer): Promise<void>;
  /** Resolves when the server closes the connection (or GIVE_UP_MS passes: then `closedByServer` is false). */
  closed: Promise<{ closedByServer: boolean }>;
  /** Resolves with the first bytes of the answer. */
  answered: Promise<string>;
}

/** A client on a raw socket, so it can be as slow, or send as much, as a test wants. */
async function rawClient(): Promise<RawClient> {
  figures.requests++;
  figures.faults++;
  const { port } = new URL(target.server.url);
  const socket = connect(Number(port), "127.0.0.1");
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let received = "";
  let written = 0;
  let onAnswer: (text: string) => void = () => {};
  const answered = new Promise<string>((resolve) => {
    onAnswer = resolve;
  });
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
    onAnswer(received);
  });
  socket.on("error", () => {});
  const closed = new Promise<{ closedByServer: boolean }>((resolve) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closedByServer: false });
    }, GIVE_UP_MS);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve({ closedByServer: true });
    });
  });
  return {
    socket,
    received: () => received,
    written: () => written,
    // Resolves once the socket takes more, or when the server has answered or closed: a client
    // blocked on a server that stopped reading must still see the answer.
    write: (data) =>
      new Promise<void>((resolve) => {
        if (socket.destroyed) return resolve();
        written += Buffer.byteLength(data);
        if (socket.write(data)) return resolve();
        socket.once("drain", () => resolve());
        void answered.then(() => resolve());
        void closed.then(() => resolve());
      }),
    closed,
    answered,
  };
}

/** Writes `next()` every `ms` until the socket is closed. */
function drip(client: RawClient, ms: number, next: (i: number) => string): void {
  let i = 0;
  const timer = setInterval(() => {
    if (client.socket.destroyed) {
      clearInterval(timer);
      return;
    }
    void client.write(next(i++));
  }, ms);
  client.closed.then(() => clearInterval(timer));
}

async function expectServerStillAnswers(): Promise<void> {
  const res = await call(figures, target.server, key, "GET", "/me");
  expect(res.status).toBe(200);
}

describe(`slow clients, ${STORE_NAME} store`, () => {
  it("slowloris: headers that never finish are cut off by the headers timeout", async () => {
    const client = await rawClient();
    await client.write("GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    drip(client, 50, (i) => `X-Slow-${i}: still coming\r\n`);
    const { closedByServer } = await client.closed;
    expect(closedByServer).toBe(true);
    if (client.received() !== "") expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    await expectServerStillAnswers();
  });

  it("a body that never ends (declared length) is cut off by the request timeout; nothing is created", async () => {
    const client = await rawClient();
    await client.write(
      [
        "POST /api/v1/posts HTTP/1.1",
        "Host: 127.0.0.1",
        `Authorization: Bearer ${key}`,
        "Content-Type: application/json",
        "Content-Length: 100000",
        "",
        '{"caption": "',
      ].join("\r\n"),
    );
    drip(client, 50, () => "a");
    const { closedByServer } = await client.closed;
    expect(closedByServer).toBe(true);
    if (client.received() !== "") expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    await expectServerStillAnswers();
    expect((await call(figures, target.server, key, "GET", "/posts")).body.data).toEqual([]);
  });

  it("a chunked body that never ends is cut off by the request timeout", async () => {
    const client = await rawClient();
    await client.write(
      [
        "POST /api/v1/posts HTTP/1.1",
        "Host: 127.0.0.1",
        `Authorization: Bearer ${key}`,
        "Content-Type: application/json",
        "Transfer-Encoding: chunked",
        "",
        "1\r\n{\r\n",
      ].join("\r\n"),
    );
    drip(client, 50, () => "1\r\n \r\n");
    const { closedByServer } = await client.closed;
    expect(closedByServer).toBe(true);
    await expectServerStillAnswers();
  });

  it("an idle keep-alive connection is closed after the keep-alive timeout", async () => {
    const client = await rawClient();
    await client.write(`GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expect(await client.answered).toMatch(/^HTTP\/1\.1 200 /);
    const { closedByServer } = await client.closed;
    expect(closedByServer).toBe(true);
  });
});

describe(`oversized bodies, ${STORE_NAME} store`, () => {
  it("a declared Content-Length of 50 MB gets 413 at once, without the body being sent", async () => {
    const client = await rawClient();
    await client.write(
      [
        "POST /api/v1/posts HTTP/1.1",
        "Host: 127.0.0.1",
        `Authorization: Bearer ${key}`,
        "Content-Type: application/json",
        `Content-Length: ${50 * 1024 * 1024}`,
        "",
        `{"caption": "${"a".repeat(1024)}`,
      ].join("\r\n"),
    );
    const answer = await client.answered;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(client.written()).toBeLessThan(2048);
    expect((await client.closed).closedByServer).toBe(true);
    const body = client.received().slice(client.received().indexOf("\r\n\r\n") + 4);
    expect(JSON.parse(body)).toEqual({ error: "Request body is larger than 1 MiB; send less." });
    await expectServerStillAnswers();
  });

  it("a chunked body that grows past 1 MiB gets 413 once the limit is passed, long before it ends", async () => {
    const client = await rawClient();
    await client.write(
      [
        "POST /api/v1/posts HTTP/1.1",
        "Host: 127.0.0.1",
        `Authorization: Bearer ${key}`,
        "Content-Type: application/json",
        "Transfer-Encoding: chunked",
        "",
        "",
      ].join("\r\n"),
    );
    const chunk = `${(64 * 1024).toString(16)}\r\n${"a".repeat(64 * 1024)}\r\n`;
    const total = 64 * 1024 * 1024;
    let answeredEarly = false;
    void client.answered.then(() => {
      answeredEarly = true;
    });
    while (!answeredEarly && !client.socket.destroyed && client.written() < total) await client.write(chunk);
    const answer = await client.answered;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    // The server stopped reading: the client could not push the whole 64 MiB.
    expect(client.written()).toBeLessThan(total);
    expect((await client.closed).closedByServer).toBe(true);
    await expectServerStillAnswers();
    expect((await call(figures, target.server, key, "GET", "/posts")).body.data).toEqual([]);
  });
});
