import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/*
 * The HTTP shell shared by the network fakes: a real node:http server on a loopback port that buffers
 * each request, hands it to the fake as plain data and writes back the fake's JSON answer. Multipart
 * bodies are parsed with the platform's own FormData parser.
 */

export interface FakeRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: Uint8Array<ArrayBuffer>;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  /** A body that is not JSON (an HTML consent page); its content-type goes in `headers`. */
  text?: string;
}

export interface RunningServer {
  /** http://127.0.0.1:PORT, without a trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/** Largest body a fake reads: above every network's upload limit, so the fake can refuse it itself. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

export async function startFakeServer(
  handle: (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>,
  port = 0,
): Promise<RunningServer> {
  const server = createServer(async (req, res) => {
    let answer: FakeAnswer;
    const body = await readBody(req).catch(() => null);
    if (body === null) {
      answer = { status: 413, json: { message: "Request entity too large" } };
    } else {
      try {
        answer = await handle({
          method: req.method ?? "GET",
          url: new URL(req.url ?? "/", "http://fake.invalid"),
          headers: headersOf(req),
          body,
        });
      } catch (error) {
        answer = { status: 500, json: { message: `fake failed: ${(error as Error).message}` } };
      }
    }
    const text = answer.text ?? (answer.json === undefined ? "" : JSON.stringify(answer.json));
    res.writeHead(answer.status, {
      ...(answer.json !== undefined ? { "content-type": "application/json" } : {}),
      ...answer.headers,
    });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Parses a multipart/form-data or urlencoded body the way a server would. */
export function formDataOf(request: FakeRequest): Promise<FormData> {
  return new Request(request.url, {
    method: "POST",
    headers: request.headers,
    body: request.body,
  }).formData();
}

/** Whether bytes start as a JPEG, PNG or GIF does: the images the LinkedIn, Reddit and Facebook fakes take. */
export function isJpegPngOrGif(bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes);
  return (
    (b[0] === 0xff && b[1] === 0xd8) ||
    b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])) ||
    b.subarray(0, 4).toString("latin1") === "GIF8"
  );
}
