// A stand-in for Bluesky's AppView, for the one thing the adapter reads from it: a post's counts
// (app.bsky.feed.getPosts) and an account's followers (app.bsky.actor.getProfile). The real AppView
// needs PostgreSQL and Redis and indexes the network's firehose; here the test sets the counts and the
// PDS proxies the adapter's reads to this server exactly as it would to the real one. Every answer is
// checked against the app.bsky lexicons that @atproto/api ships, so it has the AppView's shape; the
// posts themselves are read from the PDS, so a post that does not exist there is not invented.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AtpAgent, lexicons } from "@atproto/api";

export interface PostCounts {
  likeCount?: number;
  replyCount?: number;
  repostCount?: number;
  quoteCount?: number;
}

export interface FakeAppView {
  url: string;
  /** The PDS whose records the answers are made from (set once the PDS has started). */
  usePds(pdsUrl: string): void;
  setCounts(postUri: string, counts: PostCounts): void;
  setFollowers(did: string, followers: number): void;
  /** What each answered request asked for, e.g. "app.bsky.feed.getPosts". */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startFakeAppView(): Promise<FakeAppView> {
  let pds: AtpAgent | undefined;
  const counts = new Map<string, PostCounts>();
  const followers = new Map<string, number>();
  const requests: string[] = [];

  async function profile(actor: string) {
    if (!pds) throw new Error("the fake AppView has no PDS yet: call usePds");
    const { data } = await pds.com.atproto.repo.describeRepo({ repo: actor });
    return { did: data.did, handle: data.handle };
  }

  async function getPosts(uris: string[]) {
    if (!pds) throw new Error("the fake AppView has no PDS yet: call usePds");
    const posts = [];
    for (const uri of uris) {
      const [did, collection, rkey] = uri.replace(/^at:\/\//, "").split("/");
      if (!did || !collection || !rkey) continue;
      const record = await pds.com.atproto.repo
        .getRecord({ repo: did, collection, rkey })
        .catch(() => undefined);
      if (!record) continue;
      posts.push({
        uri,
        cid: record.data.cid,
        author: await profile(did),
        record: record.data.value,
        indexedAt: new Date().toISOString(),
        likeCount: 0,
        replyCount: 0,
        repostCount: 0,
        quoteCount: 0,
        ...counts.get(uri),
      });
    }
    return { posts };
  }

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://appview.invalid");
    const method = url.pathname.replace(/^\/xrpc\//, "");
    requests.push(method);
    let body: unknown;
    if (method === "app.bsky.feed.getPosts") {
      body = await getPosts(url.searchParams.getAll("uris"));
    } else if (method === "app.bsky.actor.getProfile") {
      const basic = await profile(url.searchParams.get("actor") ?? "");
      body = { ...basic, followersCount: followers.get(basic.did) ?? 0, followsCount: 0, postsCount: 0 };
    } else {
      response.writeHead(501, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ error: "MethodNotImplemented", message: `${method} is not served here` }),
      );
      return;
    }
    lexicons.assertValidXrpcOutput(method, body);
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  }

  const server: Server = createServer((request, response) => {
    answer(request, response).catch((error: Error) => {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: "InternalServerError", message: error.message }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    usePds(pdsUrl) {
      pds = new AtpAgent({ service: pdsUrl });
    },
    setCounts: (uri, value) => counts.set(uri, value),
    setFollowers: (did, value) => followers.set(did, value),
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
