import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpServer, listen } from "../src/http/http-server.ts";
import type { FetchHandler, RequestCompleted } from "../src/http/node-adapter.ts";

const LIMIT = 1024;
const servers: HttpServer[] = [];

async function serve(
  handler: FetchHandler,
  extra: { completed?: RequestCompleted[]; errors?: unknown[]; shutdownGraceMs?: number } = {},
) {
  const server = await listen(handler, {
    host: "127.0.0.1",
    port: 0,
    bodyLimit: LIMIT,
    shutdownGraceMs: extra.shutdownGraceMs ?? 2_000,
    onComplete: (info) => extra.completed?.push(info),
    onError: (error) => extra.errors?.push(error),
  });
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const echo: FetchHandler = async (request) => {
  const text = await request.text();
  return Response.json(
    {
      method: request.method,
      url: request.url,
      bytes: text.length,
      auth: request.headers.get("authorization"),
    },
    { headers: { "x-request-id": "req_from_handler" } },
  );
};

/** Sends a body in chunks without Content-Length (chunked transfer encoding), the way a stream would. */
function sendChunked(
  url: string,
  chunks: string[],
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "POST", headers: { "content-type": "application/json" } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      // The server may close the socket once it has answered 413, before every chunk went out.
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe("node adapter", () => {
  it("passes method, URL, headers and body to the handler and writes its response back", async () => {
    const server = await serve(echo);
    const res = await fetch(`${server.url}/api/v1/posts?limit=2`, {
      method: "POST",
      headers: { authorization: "Bearer sp_test_x", "content-type": "application/json" },
      body: JSON.stringify({ caption: "hello" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("req_from_handler");
    // A small body goes out whole, with its length, rather than chunked.
    expect(res.headers.get("transfer-encoding")).toBeNull();
    expect(Number(res.headers.get("content-length"))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({
      method: "POST",
      url: `${server.url}/api/v1/posts?limit=2`,
      bytes: 19,
      auth: "Bearer sp_test_x",
    });
  });

  it("accepts a body of exactly the limit", async () => {
    const server = await serve(echo);
    const res = await fetch(server.url, { method: "POST", body: "x".repeat(LIMIT) });
    expect(res.status).toBe(200);
    expect((await res.json()).bytes).toBe(LIMIT);
  });

  it("answers 413 to a declared Content-Length over the limit once the handler asks for the body", async () => {
    const server = await serve(echo);
    const res = await fetch(server.url, {
      method: "POST",
      headers: { "x-request-id": "abc-123" },
      body: "x".repeat(LIMIT + 1),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("x-request-id")).toBe("abc-123");
    expect(res.headers.get("connection")).toBe("close");
    expect(await res.json()).toEqual({ error: "Request body is larger than 1024 bytes; send less." });
  });

  it("keeps the answer of a handler that refuses a request from its headers, whatever the body's size", async () => {
    const server = await serve(async () =>
      Response.json({ error: "Invalid or revoked API key." }, { status: 401 }),
    );
    const res = await fetch(server.url, { method: "POST", body: "x".repeat(LIMIT * 4) });
    expect(res.status).toBe(401);
    // The body was never wanted: the connection closes rather than carry the rest.
    expect(res.headers.get("connection")).toBe("close");
  });

  it("answers 413 to a chunked body that grows past the limit while it is read", async () => {
    const server = await serve(echo);
    const res = await sendChunked(
      server.url,
      Array.from({ length: 8 }, () => "y".repeat(300)),
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: "Request body is larger than 1024 bytes; send less." });
    expect(res.headers.connection).toBe("close");
  });

  it("answers 413 even when the handler turned the failed read into another error", async () => {
    const server = await serve(async (request) => {
      try {
        await request.text();
        return new Response("read");
      } catch {
        return Response.json({ error: "Request body is not valid JSON." }, { status: 400 });
      }
    });
    const res = await sendChunked(server.url, ["z".repeat(700), "z".repeat(700)]);
    expect(res.status).toBe(413);
  });

  it("answers 500 with an error body and a request id when the handler throws", async () => {
    const errors: unknown[] = [];
    const server = await serve(
      async () => {
        throw new Error("boom");
      },
      { errors },
    );
    const res = await fetch(server.url);
    expect(res.status).toBe(500);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(/^req_/);
    expect(await res.json()).toEqual({ error: `Internal error (request ${requestId}).` });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect((errors[0] as Error).message).toBe("boom");
  });

  it("streams a large response whole", async () => {
    const size = 8 * 1024 * 1024;
    const server = await serve(async () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= size) return controller.close();
          const chunk = new Uint8Array(64 * 1024).fill(sent / (64 * 1024));
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      return new Response(body, { headers: { "content-type": "application/octet-stream" } });
    });
    const res = await fetch(server.url);
    expect(res.headers.get("transfer-encoding")).toBe("chunked");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.byteLength).toBe(size);
    expect(bytes[size - 1]).toBe(127);
  });

  it("aborts the request's signal when the client goes away", async () => {
    let resolveAborted: (reason: unknown) => void = () => {};
    const aborted = new Promise((resolve) => {
      resolveAborted = resolve;
    });
    const server = await serve(
      (request) =>
        new Promise<Response>((resolve) => {
          request.signal.addEventListener("abort", () => {
            resolveAborted(true);
            resolve(new Response("late"));
          });
        }),
    );
    const client = new AbortController();
    const pending = fetch(server.url, { signal: client.signal }).catch(() => "aborted");
    await new Promise((r) => setTimeout(r, 50));
    client.abort();
    expect(await pending).toBe("aborted");
    expect(await aborted).toBe(true);
  });

  it("reports each request once with its id, method, path without query, and status", async () => {
    const completed: RequestCompleted[] = [];
    const server = await serve(echo, { completed });
    await (await fetch(`${server.url}/api/v1/posts?cursor=secretish`)).text();
    await (await fetch(`${server.url}/x`, { method: "DELETE" })).text();
    await new Promise((r) => setTimeout(r, 20));
    expect(completed.map(({ durationMs, ...rest }) => rest)).toEqual([
      { requestId: "req_from_handler", method: "GET", path: "/api/v1/posts", status: 200 },
      { requestId: "req_from_handler", method: "DELETE", path: "/x", status: 200 },
    ]);
    for (const c of completed) expect(c.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("answers HEAD with headers and no body", async () => {
    const server = await serve(async () => Response.json({ ok: true }));
    const res = await fetch(server.url, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});

describe("graceful close", () => {
  it("finishes a request in flight, then refuses new connections", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const handlerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const server = await serve(async () => {
      started();
      await gate;
      return Response.json({ finished: true });
    });
    const inFlight = fetch(server.url);
    await handlerStarted;
    const closed = server.close();
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.headers.get("connection")).toBe("close");
    expect(await res.json()).toEqual({ finished: true });
    await closed;
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it("cuts a client off after the grace period, then waits for every handler still running", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    let allStarted: () => void = () => {};
    const bothStarted = new Promise<void>((resolve) => {
      allStarted = resolve;
    });
    let finished = 0;
    const server = await serve(
      async () => {
        if (++started === 2) allStarted();
        await gate;
        finished++;
        return Response.json({ finished: true });
      },
      { shutdownGraceMs: 50 },
    );
    const cutOff = [fetch(server.url), fetch(server.url)].map((answer) =>
      answer.then(
        () => "answered",
        () => "cut off",
      ),
    );
    await bothStarted;
    let finishedWhenClosed: number | undefined;
    const closing = server.close().then(() => {
      finishedWhenClosed = finished;
    });
    // Both clients are cut off once the grace period ends, while their handlers still run…
    expect(await Promise.all(cutOff)).toEqual(["cut off", "cut off"]);
    // …and close() is still waiting for them some turns of the event loop later.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finishedWhenClosed).toBeUndefined();
    release();
    await closing;
    expect(finishedWhenClosed).toBe(2);
  });

  it("closes idle keep-alive connections at once", async () => {
    const server = await serve(async () => Response.json({ ok: true }));
    const res = await fetch(server.url);
    await res.text();
    // The keep-alive connection above is idle; close must not wait for its 5 s timeout.
    await server.close();
    expect(server.server.listening).toBe(false);
  });
});
