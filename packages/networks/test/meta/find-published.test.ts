import { createServer, type Server } from "node:http";
import type { AccountSession, NetworkAdapter } from "@socialpub/core";
import { NetworkError } from "@socialpub/core";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetaFake, MetaFakePost, MetaFakeUser } from "../../src/common/meta-fake.ts";
import { instagramAdapter, threadsAdapter } from "../../src/index.ts";
import { InstagramFake } from "../../src/instagram/fake/server.ts";
import { ThreadsFake } from "../../src/threads/fake/server.ts";
import { type LosingFetch, losingFetch } from "../helpers/losing-fetch.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { postOf, sessionOf } from "../helpers/session.ts";

/*
 * Threads' and Instagram's findPublished against their fakes: after an attempt whose answer was lost,
 * the account's recent posts are read back (GET /{user}/threads, /{user}/media) for one with exactly
 * the text sent, made since the attempt could publish, page by page and no further back than that.
 */

interface Case {
  name: string;
  start(): Promise<MetaFake>;
  adapter(fake: MetaFake, app: { clientId: string; clientSecret: string }, f: typeof fetch): NetworkAdapter;
  /** The edge the account's posts are listed at. */
  listEdge: string;
  publishEdge: string;
}

const options = (fake: MetaFake, app: { clientId: string; clientSecret: string }, f: typeof fetch) => ({
  apiUrl: fake.url,
  authorizeUrl: `${fake.url}/oauth/authorize`,
  ...app,
  fetch: f,
});

const CASES: Case[] = [
  {
    name: "Threads",
    start: () => ThreadsFake.start(),
    adapter: (fake, app, f) => threadsAdapter(options(fake, app, f)),
    listEdge: "threads",
    publishEdge: "threads_publish",
  },
  {
    name: "Instagram",
    start: () => InstagramFake.start(),
    adapter: (fake, app, f) => instagramAdapter(options(fake, app, f)),
    listEdge: "media",
    publishEdge: "media_publish",
  },
];

const MINUTE = 60_000;

describe.each(CASES)("$name: a lost attempt's post read back from the account's recent posts", (c) => {
  let fake: MetaFake;
  let media: Server;
  let imageUrl: string;
  let net: LosingFetch;
  let adapter: NetworkAdapter;
  let user: MetaFakeUser;
  let account: AccountSession;

  beforeAll(async () => {
    fake = await c.start();
    // The image Meta fetches for a post (Instagram needs one for every post).
    media = createServer((_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(SAMPLE_PNG));
    await new Promise<void>((resolve) => media.listen(0, "127.0.0.1", resolve));
    imageUrl = `http://127.0.0.1:${(media.address() as { port: number }).port}/a.png`;
    net = losingFetch();
    adapter = c.adapter(fake, fake.addApp(), net.fetch);
    user = fake.addUser({ username: "lost_and_found" });
    fake.signIn(user);
    account = sessionOf(await connectByConsent(adapter, `${fake.url}/oauth/consent`));
  });

  afterAll(async () => {
    await fake?.close();
    await new Promise((resolve) => media?.close(resolve));
  });

  const image = () => ({ bytes: SAMPLE_PNG, contentType: "image/png", filename: "a.png", url: imageUrl });
  const listReads = () => net.requests.filter((r) => r.startsWith(`GET /`) && r.includes(`/${c.listEdge}?`));
  const find = (text: string, since: number) =>
    adapter.findPublished!(account, { key: "3kaaaaaaaaaaa", text, since }, AbortSignal.timeout(15_000));

  let handMade = 0;
  /** Posts on the account as if made by hand, `at` each, newest last. */
  function madeByHand(texts: string[], at: (i: number) => number): MetaFakePost[] {
    return texts.map((text, i) => {
      const id = `99${String(++handMade).padStart(6, "0")}`;
      const post: MetaFakePost = {
        id,
        userId: user.id,
        containerId: `c${id}`,
        mediaType: "IMAGE",
        text,
        mediaUrl: imageUrl,
        permalink: fake.shape.permalink(user.username, id),
        at: at(i),
        insights: {},
      };
      fake.posts.push(post);
      return post;
    });
  }

  it("finds the post a publish made when its answer was lost: the network's id and permalink, one post", async () => {
    const text = `Made, answer lost ${c.name}`;
    const since = Date.now() - MINUTE;
    const post = postOf(text, [image()]);
    net.loseNext(new RegExp(`^POST /[^ ]*/${c.publishEdge}$`));
    const lost = await adapter.publish(account, post).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(NetworkError);
    expect((lost as NetworkError).kind).toBe("unknown");

    const made = fake.postsOf(user).filter((p) => p.text === text);
    expect(made).toHaveLength(1);
    const found = await find(text, since);
    expect(found).toEqual({ id: made[0]!.id, permalink: made[0]!.permalink });
    expect(fake.postsOf(user).filter((p) => p.text === text)).toHaveLength(1);
  });

  it("answers null when the attempt made no post: its container was made, never published", async () => {
    const text = `Never published ${c.name}`;
    const since = Date.now() - MINUTE;
    const containers = fake.containers.size;
    net.loseNext(new RegExp(`^POST /[^ ]*/${c.listEdge}$`));
    await adapter.publish(account, postOf(text, [image()])).catch(() => null);
    expect(fake.containers.size).toBe(containers + 1);
    expect(await find(text, since)).toBeNull();
    // Sent again, it is made once.
    const again = await adapter.publish(account, postOf(text, [image()]));
    const made = fake.postsOf(user).filter((p) => p.text === text);
    expect(made.map((p) => p.permalink)).toEqual([again.permalink]);
  });

  it("answers null for a post with the same text made before the attempt could publish, or with other text", async () => {
    const now = Date.now();
    madeByHand(["Said before", "Said before, and more"], () => now - 10 * MINUTE);
    expect(await find("Said before", now - MINUTE)).toBeNull();
    expect(await find("Said before, and less", now - 20 * MINUTE)).toBeNull();
    // Kept without the white space around it, as Meta keeps text: still the post.
    expect((await find("Said before, and more \n", now - 20 * MINUTE))?.id).toBe(fake.posts.at(-1)!.id);
    expect((await find("Said before", now - 20 * MINUTE))?.id).toBe(fake.posts.at(-2)!.id);
  });

  it("reads page after page back to since, and stops at the first older post", async () => {
    const now = Date.now();
    const [target] = madeByHand(
      ["The one", ...Array.from({ length: 119 }, (_, i) => `filler ${i}`)],
      (i) => now - 200 + i,
    );
    const before = listReads().length;
    // 120 posts made since, the one we look for the oldest of them: the third page of 50.
    expect(await find("The one", now - MINUTE)).toEqual({ id: target!.id, permalink: target!.permalink });
    const reads = listReads().slice(before);
    expect(reads).toHaveLength(3);
    expect(new URL(`http://h${reads[0]!.slice(4)}`).searchParams.get("limit")).toBe("50");
    expect(reads[0]).not.toContain("access_token");
    expect(reads[1]).toMatch(/[?&]after=/);

    // Looked for since just now, the first page already reaches past it: one read, and nothing found.
    const more = listReads().length;
    expect(await find("Not there", now + MINUTE)).toBeNull();
    expect(listReads().length - more).toBe(1);
  });

  it("fails as outcome unknown, never sending again, when more posts were made since than it reads", async () => {
    const now = Date.now();
    madeByHand(
      Array.from({ length: 260 }, (_, i) => `busy ${i}`),
      (i) => now + i,
    );
    const before = listReads().length;
    const error = await find("Hidden far back", now - MINUTE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: "refused" });
    expect((error as Error).message).toMatch(new RegExp(`^${c.name}: outcome unknown: check the network`));
    expect(listReads().length - before).toBe(5);
  });
});
