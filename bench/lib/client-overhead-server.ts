// The peer of bench/client-overhead.ts: a node:http server on 127.0.0.1, port 0, answering every request
// with the same JSON body. It runs in its own worker thread so that its work does not share the event
// loop being measured. Posts its URL to the parent when listening; stops when the parent says "stop".
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parentPort, workerData } from "node:worker_threads";

const body = String(workerData.body);
const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "x-request-id": "req_bench" });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => {
  parentPort?.postMessage(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
parentPort?.on("message", (message) => {
  if (message === "stop") {
    server.closeAllConnections();
    server.close(() => parentPort?.close());
  }
});
