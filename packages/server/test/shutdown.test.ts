import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { api, TEST_KEY } from "./support/cli-process.ts";
import { useDevServers } from "./support/dev-servers.ts";

const { start, databaseFile } = useDevServers();

/** Resolves once the server refuses new connections. */
async function refusesConnections(url: string): Promise<void> {
  for (;;) {
    try {
      await (await fetch(`${url}/healthz`, { headers: { connection: "close" } })).text();
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("graceful shutdown", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`on ${signal}: stops accepting, finishes the request in flight, keeps its post, exits 0`, async () => {
      const db = databaseFile("shutdown.db");
      let server = await start(db);

      const body = JSON.stringify({ caption: `sent across ${signal}`, platforms: ["x"] });
      let exited: Promise<number | string> | undefined;
      const response = await new Promise<{ status: number; connection: string | undefined; text: string }>(
        (resolve, reject) => {
          const req = httpRequest(`${server.url}/api/v1/posts`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${TEST_KEY}`,
              "content-type": "application/json",
              "content-length": Buffer.byteLength(body),
              // The server answers 100 Continue once the request has reached the service.
              expect: "100-continue",
            },
          });
          req.on("continue", async () => {
            exited = server.stop(signal);
            await refusesConnections(server.url);
            req.end(body);
          });
          req.on("response", (res) => {
            let text = "";
            res.setEncoding("utf8").on("data", (chunk) => {
              text += chunk;
            });
            res.on("end", () =>
              resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }),
            );
          });
          req.on("error", reject);
          req.flushHeaders();
        },
      );
      expect(response.status).toBe(201);
      expect(response.connection).toBe("close");
      expect(await exited).toBe(0);

      server = await start(db);
      const id = JSON.parse(response.text).id;
      expect((await api(server, TEST_KEY, "GET", `/posts/${id}`)).body.caption).toBe(`sent across ${signal}`);
    });
  }
});
