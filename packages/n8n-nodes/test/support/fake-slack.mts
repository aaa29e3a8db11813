// Slack's Web API for an n8n that cannot reach the internet, so the example workflows can run as users
// import them: their Slack node calls https://slack.com/api/… as usual. n8n sends HTTPS through the
// proxy named in HTTPS_PROXY; this proxy answers CONNECT to slack.com:443 with a local TLS server
// whose certificate (made here with openssl, for slack.com) n8n trusts through NODE_EXTRA_CA_CERTS.
// A CONNECT to any other host is refused, so nothing leaves the machine.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Socket } from "node:net";
import { join } from "node:path";

export interface SlackCall {
  method: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeSlack {
  /** Environment for n8n: HTTPS_PROXY, NO_PROXY (local addresses go direct) and NODE_EXTRA_CA_CERTS. */
  env: NodeJS.ProcessEnv;
  /** Every Web API call received, in order, e.g. `chat.postMessage` with its JSON body. */
  calls: SlackCall[];
  close(): Promise<void>;
}

/** A certificate and key for slack.com, self-signed, valid for a day, written into `dir`. */
function makeCertificate(dir: string): { cert: string; key: string; certFile: string } {
  const certFile = join(dir, "slack.com.pem");
  const keyFile = join(dir, "slack.com.key");
  // biome-ignore format: one openssl option per line reads better
  execFileSync("openssl", [
    "req", "-x509", "-nodes", "-days", "1",
    "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
    "-subj", "/CN=slack.com", "-addext", "subjectAltName=DNS:slack.com",
    "-keyout", keyFile, "-out", certFile,
  ], { stdio: "pipe" });
  return { cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8"), certFile };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );
}

/** Starts the proxy and Slack's stand-in; `dir` holds the certificate files. */
export async function startFakeSlack(dir: string): Promise<FakeSlack> {
  const { cert, key, certFile } = makeCertificate(dir);
  const calls: SlackCall[] = [];
  let ts = 1_700_000_000;

  const slack = createHttpsServer({ cert, key }, (request, response) => {
    let raw = "";
    request.setEncoding("utf8").on("data", (chunk: string) => {
      raw += chunk;
    });
    request.on("end", () => {
      const method = (request.url ?? "").replace(/^\/api\//, "").split("?")[0] ?? "";
      const body = raw === "" ? {} : (JSON.parse(raw) as Record<string, unknown>);
      calls.push({ method, headers: request.headers, body });
      ts += 1;
      const answer =
        method === "chat.postMessage"
          ? {
              ok: true,
              channel: "C0SOCIAL",
              ts: `${ts}.000100`,
              message: { text: body.text, ts: `${ts}.000100` },
            }
          : { ok: false, error: "unknown_method" };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });

  const sockets = new Set<Socket>();
  const proxy = createHttpServer((_request, response) => {
    response.writeHead(403).end("This proxy only tunnels to slack.com.\n");
  });
  proxy.on("connect", (request, socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    if (request.url !== "slack.com:443") {
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n", () => slack.emit("connection", socket));
  });
  const proxyPort = await listen(proxy);

  return {
    env: {
      HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`,
      NO_PROXY: "127.0.0.1,localhost,::1",
      NODE_EXTRA_CA_CERTS: certFile,
    },
    calls,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      slack.close();
    },
  };
}
