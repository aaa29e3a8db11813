// The ceiling every HTTP benchmark is compared with: node:http answering every request with the same
// post JSON, nothing else. Run as a child process by bench/lib/child.ts; argv[2] is the body.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { serveParent } from "./serve-parent.ts";

const body = Buffer.from(process.argv[2] ?? "{}");
const headers = {
  "content-type": "application/json; charset=utf-8",
  "content-length": String(body.byteLength),
  "x-request-id": "req_bare",
};
const server = createServer((req, res) => {
  // Read (and drop) any request body so a POST is answered like a GET.
  req.resume();
  req.on("end", () => {
    res.writeHead(req.method === "POST" ? 201 : 200, headers);
    res.end(body);
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
    () => {
      const { user, system } = process.cpuUsage();
      return { cpu_us: user + system };
    },
  );
});
