import { createServer, type Server } from "node:http";
import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishInput,
  type PublishStep,
  THREAD_KEYS,
} from "@socialpub/core";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetaFake, MetaFakePost, MetaFakeUser } from "../../src/common/meta-fake.ts";
import { THREADS_DEFAULT_SCOPES, threadsAdapter } from "../../src/index.ts";
import { ThreadsFake } from "../../src/threads/fake/server.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { postOf, sessionOf } from "../helpers/session.ts";

/*
 * Threads carries rich posts as its API documents them, against the Threads fake: a carousel whose
 * items keep their order and alt text; a thread whose later parts are replies, each to the part before,
 * resumed after an attempt stopped mid-part without sending any part twice; the first comment as the
 * account's reply to the first part; a poll on a text post. Without threads_manage_replies Threads
 * refuses a reply, and the fake refuses what Threads refuses.
 */

let fake: MetaFake;
let media: Server;
let mediaUrl: string;
let net: ReturnType<typeof answerLosingFetch>;
let user: MetaFakeUser;
let app: { clientId: string; clientSecret: string };

const adapterWith = (scopes: readonly string[] = THREADS_DEFAULT_SCOPES, containerWaitMs?: number) =>
  threadsAdapter({
    apiUrl: fake.url,
    authorizeUrl: `${fake.url}/oauth/authorize`,
    ...app,
    scopes,
    fetch: net.fetch,
    ...(containerWaitMs !== undefined && { containerWaitMs }),
  });

async function connect(scopes: readonly string[] = THREADS_DEFAULT_SCOPES): Promise<AccountSession> {
  return sessionOf(await connectByConsent(adapterWith(scopes), `${fake.url}/oauth/consent`));
}

beforeAll(async () => {
  fake = await ThreadsFake.start();
  // The images Threads fetches for a post.
  media = createServer((_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(SAMPLE_PNG));
  await new Promise<void>((resolve) => media.listen(0, "127.0.0.1", resolve));
  mediaUrl = `http://127.0.0.1:${(media.address() as { port: number }).port}`;
  net = answerLosingFetch();
  app = fake.addApp();
  user = fake.addUser({ username: "rich_threads" });
  fake.signIn(user);
});

afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => media?.close(resolve));
});

const image = (name: string, alt?: string): MediaFile => ({
  bytes: SAMPLE_PNG,
  contentType: "image/png",
  filename: `${name}.png`,
  url: `${mediaUrl}/${name}.png`,
  ...(alt !== undefined && { alt }),
});

/** A post whose steps are kept as the service keeps them, so a later attempt resumes from them. */
function stepped(base: PublishInput) {
  const kept: { step: PublishStep | null } = { step: null };
  return {
    kept,
    attempt: (): PublishInput => ({
      ...base,
      signal: AbortSignal.timeout(30_000),
      step: kept.step,
      saveStep: async (step) => {
        kept.step = step;
      },
    }),
  };
}

const postsWith = (text: string): MetaFakePost[] => fake.postsOf(user).filter((p) => p.text === text);

describe("Threads: rich posts", () => {
  let account: AccountSession;
  beforeAll(async () => {
    account = await connect();
  });

  it("publishes three images as one carousel, in order, each with its alt text", async () => {
    const adapter = adapterWith();
    const text = "Three views of the launch";
    const files = [
      image("a", "The rocket on the pad"),
      image("b", "Lift-off in smoke"),
      image("c", "A dot in the sky"),
    ];
    const published = await adapter.publish(account, postOf(text, files));

    const [post] = postsWith(text);
    expect(postsWith(text)).toHaveLength(1);
    expect(published).toEqual({ id: post!.id, permalink: post!.permalink });
    expect(post!.mediaType).toBe("CAROUSEL");
    expect(post!.children).toEqual(files.map((f) => ({ mediaType: "IMAGE", mediaUrl: f.url, alt: f.alt })));
  });

  it("publishes a single image with its alt text", async () => {
    const text = "One picture";
    await adapterWith().publish(account, postOf(text, [image("d", "A quiet harbour")]));
    expect(postsWith(text)[0]).toMatchObject({ mediaType: "IMAGE", alt: "A quiet harbour" });
  });

  it("publishes a thread of three as replies, each to the part before, and answers every part", async () => {
    const base = {
      ...postOf("Part one of the notes"),
      thread: [
        { text: "Part two, with a picture", media: [image("e", "A chart going up")] },
        { text: "Part three", media: [] },
      ],
    };
    const published = await adapterWith().publish(account, base);

    const [one, two, three] = ["Part one of the notes", "Part two, with a picture", "Part three"].map(
      (t) => postsWith(t)[0]!,
    );
    expect(one!.replyTo).toBeNull();
    expect(two).toMatchObject({ replyTo: one!.id, mediaType: "IMAGE", alt: "A chart going up" });
    expect(three!.replyTo).toBe(two!.id);
    expect(published.id).toBe(one!.id);
    expect(published.parts).toEqual([one, two, three].map((p) => ({ id: p!.id, permalink: p!.permalink })));
  });

  it("resumes a thread of three after an attempt stopped mid-part, and sends no part twice", async () => {
    const texts = ["Crash one", "Crash two", "Crash three"];
    const { kept, attempt } = stepped({
      ...postOf(texts[0]!),
      thread: texts.slice(1).map((text) => ({ text, media: [] })),
    });
    const adapter = adapterWith();

    // Part two is published, and its answer never comes back: the attempt stops there.
    const publishes = () => net.requests.filter((r) => /threads_publish$/.test(r)).length;
    net.loseAnswer(/^POST \/v1\.0\/\d+\/threads_publish$/, 1);
    const first = await adapter.publish(account, attempt()).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(NetworkError);
    expect((first as NetworkError).kind).toBe("unknown");
    expect((first as Error).message).toMatch(/^part 2 of 3: /);
    expect(postsWith("Crash one")).toHaveLength(1);
    expect(postsWith("Crash two")).toHaveLength(1);
    expect(postsWith("Crash three")).toHaveLength(0);
    expect(kept.step?.[THREAD_KEYS.sending]).toBe(1);

    // The next attempt (a retry, or the first after a restart) goes on from the saved step.
    const before = publishes();
    const done = await adapterWith().publish(account, attempt());
    const [one, two, three] = texts.map((t) => postsWith(t));
    expect([one, two, three].map((p) => p!.length)).toEqual([1, 1, 1]);
    expect(two![0]!.replyTo).toBe(one![0]!.id);
    expect(three![0]!.replyTo).toBe(two![0]!.id);
    // Only part three was published this time: part two's container said it already was.
    expect(publishes() - before).toBe(1);
    expect(done.parts?.map((p) => p.id)).toEqual([one![0]!.id, two![0]!.id, three![0]!.id]);
  });

  it("resumes a part whose container was made but never saved: it looks among the replies, then sends it once", async () => {
    const texts = ["Lost container one", "Lost container two"];
    const { kept, attempt } = stepped({ ...postOf(texts[0]!), thread: [{ text: texts[1]!, media: [] }] });
    const makes = () => net.requests.filter((r) => /^POST \/v1\.0\/\d+\/threads$/.test(r)).length;
    // Part two's container is made by Threads, and the service stops before its answer comes (part
    // one's went through): the step stays as it was then, nothing the attempt did afterwards is kept.
    const start = makes();
    let atStop: PublishStep | null = null;
    net.loseAnswer(/^POST \/v1\.0\/\d+\/threads$/, 1, () => {
      atStop = kept.step;
    });
    const lost = await adapterWith()
      .publish(account, attempt())
      .catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(NetworkError);
    expect(makes() - start).toBe(2);
    kept.step = atStop;
    expect(kept.step?.[THREAD_KEYS.sending]).toBe(1);
    const repliesRead = () => net.requests.filter((r) => /\/replies\?/.test(r)).length;
    const reads = repliesRead();
    await adapterWith().publish(account, attempt());
    // It was looked for among the account's replies before it was sent again, and it is there once.
    expect(repliesRead() - reads).toBe(1);
    expect(postsWith(texts[0]!)).toHaveLength(1);
    expect(postsWith(texts[1]!)).toHaveLength(1);
  });

  it("adds the first comment as the account's reply to the first part", async () => {
    const text = "Release 2.0 is out";
    const published = await adapterWith().publish(account, {
      ...postOf(text),
      firstComment: "Notes: https://example.com/2.0",
    });
    const [post] = postsWith(text);
    const [comment] = postsWith("Notes: https://example.com/2.0");
    expect(comment!.replyTo).toBe(post!.id);
    expect(published.id).toBe(post!.id);
    expect(published.firstComment).toEqual({
      status: "published",
      permalink: comment!.permalink,
      error: null,
    });
  });

  it("attaches a poll to a text post, its options in order", async () => {
    const text = "Which release name?";
    await adapterWith().publish(account, {
      ...postOf(text),
      poll: { options: ["Aurora", "Borealis", "Comet"], durationMinutes: null },
    });
    expect(postsWith(text)[0]!.poll).toEqual(["Aurora", "Borealis", "Comet"]);
  });

  it("refuses a poll with media, as Threads takes polls only on text posts", async () => {
    const error = await adapterWith()
      .publish(account, {
        ...postOf("Poll and picture", [image("f")]),
        poll: { options: ["Yes", "No"], durationMinutes: null },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "refused" });
    expect(postsWith("Poll and picture")).toHaveLength(0);
  });
});

describe("Threads: without threads_manage_replies", () => {
  it("publishes the post and says the first comment failed; a thread stops at its second part", async () => {
    const scopes = ["threads_basic", "threads_content_publish", "threads_read_replies"];
    const account = await connect(scopes);
    const adapter = adapterWith(scopes);
    const published = await adapter.publish(account, { ...postOf("No replies allowed"), firstComment: "Hi" });
    expect(postsWith("No replies allowed")).toHaveLength(1);
    expect(published.firstComment).toMatchObject({ status: "failed", permalink: null });
    expect(published.firstComment?.error).toMatch(/permission/);

    const error = await adapter
      .publish(account, { ...postOf("Thread start"), thread: [{ text: "Thread rest", media: [] }] })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^part 2 of 2: .*permission/);
    expect(postsWith("Thread start")).toHaveLength(1);
    expect(postsWith("Thread rest")).toHaveLength(0);
  });
});

describe("the Threads fake, as Threads documents it", () => {
  let token: string;
  beforeAll(async () => {
    token = String((await connect()).credentials.access_token);
  });
  const call = async (params: Record<string, string>, path = `/v1.0/${user.id}/threads`) => {
    const response = await fetch(`${fake.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: new URLSearchParams(params),
    });
    return {
      status: response.status,
      body: (await response.json()) as { id?: string; error?: { message: string } },
    };
  };
  const item = async () =>
    (await call({ media_type: "IMAGE", image_url: `${mediaUrl}/i.png`, is_carousel_item: "true" })).body.id!;

  it("takes a carousel of 2 to 20 finished items, each once, and no fewer or more", async () => {
    expect((await call({ media_type: "CAROUSEL", children: await item() })).status).toBe(400);
    const many = await Promise.all(Array.from({ length: 21 }, item));
    expect((await call({ media_type: "CAROUSEL", children: many.join(",") })).status).toBe(400);
    const two = many.slice(0, 2).join(",");
    expect((await call({ media_type: "CAROUSEL", children: two })).status).toBe(200);
    // An item belongs to one carousel.
    expect((await call({ media_type: "CAROUSEL", children: two })).status).toBe(400);
    // An item still processing cannot go into a carousel.
    fake.holdContainers = true;
    const held = await item();
    fake.release();
    fake.containers.get(held)!.status = "IN_PROGRESS";
    const notReady = await call({ media_type: "CAROUSEL", children: `${held},${many[2]}` });
    expect(notReady.status).toBe(400);
    expect(notReady.body.error?.message).toMatch(/not ready/);
  });

  it("refuses a carousel item published alone, a poll off a text post, and a bad poll", async () => {
    const lone = await item();
    expect((await call({ creation_id: lone }, `/v1.0/${user.id}/threads_publish`)).status).toBe(400);
    const poll = JSON.stringify({ option_a: "Yes", option_b: "No" });
    expect(
      (await call({ media_type: "IMAGE", image_url: `${mediaUrl}/p.png`, poll_attachment: poll })).status,
    ).toBe(400);
    const long = JSON.stringify({ option_a: "Yes", option_b: "x".repeat(26) });
    expect((await call({ media_type: "TEXT", text: "Q", poll_attachment: long })).status).toBe(400);
    const one = JSON.stringify({ option_a: "Only" });
    expect((await call({ media_type: "TEXT", text: "Q", poll_attachment: one })).status).toBe(400);
    expect((await call({ media_type: "TEXT", text: "Q", poll_attachment: poll })).status).toBe(200);
  });
});

/**
 * A fetch that passes every request on and records it ("POST /v1.0/1/threads"), and can lose the answer
 * of one request: the `skip`+1-th from now whose line matches, which reaches Threads and does what it
 * asks, its answer dropped as a connection closing drops it.
 */
function answerLosingFetch() {
  const requests: string[] = [];
  let rule: { pattern: RegExp; skip: number; onLost?: () => void } | null = null;
  const losing: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const line = `${init?.method ?? "GET"} ${url.pathname}${url.search}`;
    requests.push(line);
    if (rule?.pattern.test(line)) {
      if (rule.skip > 0) rule.skip--;
      else {
        const { onLost } = rule;
        rule = null;
        await (await fetch(input, init)).arrayBuffer();
        onLost?.();
        const cause = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
        throw new TypeError("fetch failed", { cause });
      }
    }
    return fetch(input, init);
  };
  return {
    fetch: losing,
    requests,
    /** Loses the answer to the request matching `pattern` after `skip` of them; `onLost` runs as it is lost. */
    loseAnswer(pattern: RegExp, skip = 0, onLost?: () => void) {
      rule = { pattern, skip, ...(onLost && { onLost }) };
    },
  };
}
