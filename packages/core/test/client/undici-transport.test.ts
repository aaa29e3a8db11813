import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SocialPublishClient, SocialPublishError } from "../../src/client/index.ts";
import { sampleUser } from "./helpers/sample-resources.ts";

// How the client reads an answer off the wire (src/client/undici-transport.ts): whole, however the
// server cuts it into writes.
let server: Server;
let write: (res: import("node:http").ServerResponse) => void = () => {};

beforeAll(async () => {
  server = createServer((_req, res) => write(res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function client() {
  const { port } = server.address() as AddressInfo;
  return new SocialPublishClient({
    apiKey: "sp_test_0123456789abcdefghijklmnopqrstuv",
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
  });
}

describe("the undici transport", () => {
  it("reads a body sent in many writes, with a character split between two of them", async () => {
    const user = { ...sampleUser(), name: "Zoë ".repeat(20_000).trim() };
    const bytes = Buffer.from(JSON.stringify(user));
    const split = bytes.indexOf(Buffer.from("ë")) + 1; // between the two bytes of "ë"
    write = (res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(bytes.subarray(0, split));
      setImmediate(() => {
        for (let at = split; at < bytes.length; at += 1000) res.write(bytes.subarray(at, at + 1000));
        res.end();
      });
    };
    const me = await client().me();
    expect(me.name).toBe(user.name);
  });

  it("reads a body that starts with a byte order mark, as fetch's text() does", async () => {
    write = (res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(sampleUser()))]));
    };
    expect(await client().me()).toEqual(sampleUser());
  });

  it("gives an error the answer's request id and headers, several of one name joined", async () => {
    write = (res) => {
      res.setHeader("x-request-id", "req_transport");
      res.setHeader("x-many", ["a", "b"]);
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "caption is required." }));
    };
    const error = (await client()
      .me()
      .catch((e: unknown) => e)) as SocialPublishError;
    expect(error).toBeInstanceOf(SocialPublishError);
    expect(error.status).toBe(400);
    expect(error.requestId).toBe("req_transport");
    expect(error.headers.get("x-many")).toBe("a, b");
  });
});
