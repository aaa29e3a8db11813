import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMediaFetch, type MediaFetch } from "../../src/publishing/media-fetch.ts";
import { SAMPLE_PNG } from "../../src/testing/index.ts";
import { type LiveService, liveService, targetsOf } from "./helpers/live-service.ts";
import { ScriptedAdapter } from "./helpers/scripted-adapter.ts";

/*
 * The service fetches a live post's media itself before an adapter uploads it. Against a real HTTP
 * server on port 0: the public-address rule (for the URL and every redirect), the network's size
 * limit, bytes that must be an image or video, and the attempt's time limit. Names resolve through the
 * service's injected resolver for the address rule; the connection itself is routed to the local
 * server, which stands for hosts on the internet.
 */

const ADDRESSES: Record<string, string[]> = {
  "media.example": ["93.184.216.34"],
  "cdn.example": ["93.184.216.35"],
  "internal.example": ["10.0.0.5"],
};
const LIMIT = 1000;
const BIG = Buffer.concat([Buffer.from(SAMPLE_PNG), Buffer.alloc(2 * LIMIT)]);

let server: Server;
let port: number;
const requested: string[] = [];
const agent = new Agent({
  connect: {
    lookup: (_host, options, callback) =>
      options.all ? callback(null, [{ address: "127.0.0.1", family: 4 }]) : callback(null, "127.0.0.1", 4),
  },
});
/** Every host is the local server; the service's address rule still sees each URL's own host. */
const routedFetch: MediaFetch = async (url, init) =>
  (await undiciFetch(url, {
    redirect: "manual",
    signal: init.signal,
    dispatcher: agent,
  })) as unknown as Response;

beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(`${req.headers.host?.split(":")[0]}${req.url}`);
    switch (req.url) {
      case "/png":
        res.writeHead(200, { "content-type": "image/png" }).end(SAMPLE_PNG);
        return;
      case "/html":
        res.writeHead(200, { "content-type": "image/png" }).end("<!doctype html><p>not an image</p>");
        return;
      case "/big":
        res.writeHead(200, { "content-type": "image/png", "content-length": BIG.length }).end(BIG);
        return;
      case "/big-chunked":
        // No length said: the service must stop reading past the limit.
        res.writeHead(200, { "content-type": "image/png" });
        res.write(BIG.subarray(0, LIMIT));
        res.end(BIG.subarray(LIMIT));
        return;
      case "/to-internal":
        res.writeHead(302, { location: `http://internal.example:${port}/png` }).end();
        return;
      case "/to-loopback":
        res.writeHead(301, { location: `http://127.0.0.1:${port}/png` }).end();
        return;
      case "/to-cdn":
        res.writeHead(302, { location: `http://cdn.example:${port}/png` }).end();
        return;
      case "/hang":
        return; // never answers
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await agent.close();
});

let live: (LiveService & { adapters: ScriptedAdapter[] }) | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
  requested.length = 0;
});

async function publishWithMedia(media: string, attemptTimeoutMs?: number) {
  live = await liveService((clock) => [new ScriptedAdapter("telegram", clock, { maxMediaBytes: LIMIT })], {
    service: {
      allowPrivateWebhookUrls: false,
      lookupHost: async (host) => ADDRESSES[host] ?? [],
      mediaFetch: routedFetch,
    },
    ...(attemptTimeoutMs !== undefined && { publishing: { attemptTimeoutMs } }),
  });
  const res = await live.user.post("/posts", { caption: "with media", platforms: ["telegram"], media });
  expect(res.status).toBe(201);
  const [telegram] = live.adapters as [ScriptedAdapter];
  return { post: res.body, target: (await targetsOf(live.user, res.body.id)).telegram, telegram };
}

describe("media fetched for a live network", () => {
  it("an image on a public host is fetched and handed to the adapter, its type sniffed from the bytes", async () => {
    const { post, target, telegram } = await publishWithMedia(`http://media.example:${port}/png`);
    expect(post.status).toBe("published");
    expect(target.status).toBe("published");
    const [media] = telegram.publishes[0]!.post.media;
    expect(media).toMatchObject({ contentType: "image/png", filename: "media.png" });
    expect(Buffer.from(media!.bytes)).toEqual(Buffer.from(SAMPLE_PNG));
  });

  it("a URL on a loopback address is refused without being fetched", async () => {
    const { target, telegram } = await publishWithMedia(`http://127.0.0.1:${port}/png`);
    expect(target.status).toBe("failed");
    expect(target.error).toMatch(
      /^Telegram: the post's media URL was refused: .*127\.0\.0\.1, a loopback, private/,
    );
    expect(requested).toEqual([]);
    expect(telegram.publishes).toHaveLength(0);
  });

  it("a name that resolves to a private address is refused without being fetched", async () => {
    const { target } = await publishWithMedia(`http://internal.example:${port}/png`);
    expect(target.status).toBe("failed");
    expect(target.error).toMatch(/internal\.example, a loopback, private or link-local address/);
    expect(requested).toEqual([]);
  });

  it("every redirect is checked again: one to a private address is refused, not followed", async () => {
    const internal = await publishWithMedia(`http://media.example:${port}/to-internal`);
    expect(internal.target.status).toBe("failed");
    expect(internal.target.error).toMatch(/internal\.example, a loopback, private/);
    expect(requested).toEqual(["media.example/to-internal"]);
    await live?.close();
    live = null;
    requested.length = 0;

    const loopback = await publishWithMedia(`http://media.example:${port}/to-loopback`);
    expect(loopback.target.error).toMatch(/127\.0\.0\.1, a loopback, private/);
    expect(requested).toEqual(["media.example/to-loopback"]);
  });

  it("a redirect to another public host is followed", async () => {
    const { target, telegram } = await publishWithMedia(`http://media.example:${port}/to-cdn`);
    expect(target.status).toBe("published");
    expect(requested).toEqual(["media.example/to-cdn", "cdn.example/png"]);
    expect(telegram.publishes[0]!.post.media[0]!.url).toBe(`http://cdn.example:${port}/png`);
  });

  it("a file larger than the network takes is refused, whether its length is said or not", async () => {
    for (const path of ["/big", "/big-chunked"]) {
      const { target, telegram } = await publishWithMedia(`http://media.example:${port}${path}`);
      expect(target.status).toBe("failed");
      expect(target.error).toMatch(/^Telegram: the post's media is larger than the 0\.0 MB Telegram takes/);
      expect(telegram.publishes).toHaveLength(0);
      await live?.close();
      live = null;
    }
  });

  it("bytes that are not an image or video are refused, whatever the content-type says", async () => {
    const { target, telegram } = await publishWithMedia(`http://media.example:${port}/html`);
    expect(target.status).toBe("failed");
    expect(target.error).toMatch(/is not an image or video this service recognises/);
    expect(telegram.publishes).toHaveLength(0);
  });

  it("a host that never answers is given up on at the attempt's time limit and retried later", async () => {
    const { post, target, telegram } = await publishWithMedia(`http://media.example:${port}/hang`, 1_000);
    expect(post.status).toBe("publishing");
    expect(target.status).toBe("pending");
    expect(target.error).toMatch(/the media URL could not be fetched \(media\.example:\d+ did not answer\)/);
    expect(telegram.publishes).toHaveLength(0);
  });
});

describe("the default media fetcher", () => {
  it("will not connect to a name that resolves to a loopback address unless private addresses are allowed (DNS rebinding)", async () => {
    const url = `http://localhost:${port}/png`;
    const strict = createMediaFetch({ allowPrivateAddresses: false });
    try {
      const error = await strict.fetch(url, { signal: AbortSignal.timeout(5_000) }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect(String((error as Error).cause)).toMatch(/not a public address/);
      expect(requested).toEqual([]);
    } finally {
      await strict.close();
    }
    const open = createMediaFetch({ allowPrivateAddresses: true });
    try {
      const response = await open.fetch(url, { signal: AbortSignal.timeout(5_000) });
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(SAMPLE_PNG));
    } finally {
      await open.close();
    }
  });
});
