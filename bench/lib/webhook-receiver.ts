// A local webhook receiver for the delivery benchmark: node:http on 127.0.0.1 that checks the Standard
// Webhooks signature of every delivery (endpoint n is /hooks/n, signed with the n-th secret of argv[2],
// a JSON array) and answers 204. It counts valid deliveries, distinct event ids and invalid ones, and
// when the first and last valid delivery arrived. Run as a child process by bench/lib/child.ts.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "../../packages/core/src/index.ts";
import { serveParent } from "./serve-parent.ts";

const secrets = JSON.parse(process.argv[2] ?? "[]") as string[];
const seen = new Set<string>();
let valid = 0;
let invalid = 0;
let first = 0;
let last = 0;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const secret = secrets[Number(/^\/hooks\/(\d+)$/.exec(req.url ?? "")?.[1] ?? -1)];
    try {
      if (secret === undefined) throw new Error(`no endpoint at ${req.url}`);
      const event = verifyWebhook(Buffer.concat(chunks), req.headers, secret);
      const now = performance.timeOrigin + performance.now();
      if (valid === 0) first = now;
      last = now;
      valid++;
      seen.add(event.id);
      res.writeHead(204).end();
    } catch {
      invalid++;
      res.writeHead(400).end();
    }
  });
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  serveParent(
    `http://127.0.0.1:${port}`,
    async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    () => ({ valid, invalid, distinct: seen.size, first, last }),
  );
});
