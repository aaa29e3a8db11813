import type { Credentials, PublishInput, PublishStep } from "@socialpub/core";
import { SAMPLE_MP4 } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { xAdapter } from "../../src/index.ts";
import { XFake, type XFakeUser } from "../../src/x/fake/server.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { caught, fileOf, postOf, sessionOf } from "../helpers/session.ts";

/*
 * Rich posts on X through the adapter against the X fake, every request checked against x-openapi.json:
 * up to four images each with its alt text, a thread of replies with a first comment, a poll and
 * reply_settings, and a thread whose part lost its answer continued without sending that part twice.
 */

let fake: XFake;
let ada: XFakeUser;
let app: { clientId: string; clientSecret: string };
let credentials: Credentials;

const adapter = (fetch?: typeof globalThis.fetch) =>
  xAdapter({
    apiUrl: fake.url,
    authorizeUrl: `${fake.url}/i/oauth2/authorize`,
    ...app,
    ...(fetch && { fetch }),
  });

/** A post whose saved steps are recorded, starting from `step`. */
function recorded(post: PublishInput, step: PublishStep | null = null) {
  const steps: PublishStep[] = [];
  post.step = step;
  post.saveStep = async (s) => {
    steps.push(s);
  };
  return { post, steps };
}

const part = (text: string, media = [] as ReturnType<typeof fileOf>[]) => ({ text, media });

/**
 * A fetch that passes every request to the fake, but for the `nth` POST /2/tweets: that one reaches X
 * (which makes the post) and its answer is lost, as a connection closing drops it; or, with `reaches`
 * false, the request itself is lost on its way.
 */
function losingNthPost(nth: number, reaches = true): typeof fetch {
  let posts = 0;
  return async (input, init) => {
    const url = new URL(String(input));
    if (init?.method === "POST" && url.pathname === "/2/tweets" && ++posts === nth) {
      if (reaches) await (await fetch(input, init)).arrayBuffer();
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
      });
    }
    return fetch(input, init);
  };
}

beforeAll(async () => {
  fake = await XFake.start();
  app = fake.addApp();
  ada = fake.addUser({ username: "ada_ships" });
  fake.signIn(ada);
  fake.postsPerWindow = 1_000;
  credentials = await connectByConsent(adapter(), `${fake.url}/i/oauth2/consent`);
}, 60_000);

afterAll(() => fake?.close());

describe("x adapter: rich posts", { timeout: 60_000 }, () => {
  it("posts four images, each with its alt text (POST /2/media/metadata); an animated GIF keeps its alt text too", async () => {
    const images = [1, 2, 3, 4].map((i) =>
      fileOf("image/png", `shot${i}.png`, 2048, `Screenshot ${i} of the release`),
    );
    images[2] = fileOf("image/jpeg", "plain.jpg");
    const published = await adapter().publish(sessionOf(credentials), postOf("Four shots", images));
    const made = fake.posts.find((p) => p.id === published.id)!;
    expect(made.mediaIds).toHaveLength(4);
    expect(made.mediaIds.map((id) => fake.alt.get(id) ?? null)).toEqual([
      "Screenshot 1 of the release",
      "Screenshot 2 of the release",
      null,
      "Screenshot 4 of the release",
    ]);

    const gif = fileOf("image/gif", "loop.gif", 20 * 1024, "A loop of the new dashboard");
    const looped = await adapter().publish(sessionOf(credentials), postOf("A loop", [gif]));
    const gifId = fake.posts.find((p) => p.id === looped.id)!.mediaIds[0]!;
    expect(fake.chunked.uploads.get(gifId)?.category).toBe("tweet_gif");
    expect(fake.alt.get(gifId)).toBe("A loop of the new dashboard");
    expect(fake.specViolations).toEqual([]);
  });

  it("posts a video with alt text without it: X's media metadata takes alt text for images and GIFs only", async () => {
    const bytes = new Uint8Array(40 * 1024).map((_, i) => i % 251);
    bytes.set(SAMPLE_MP4, 0);
    const clip = {
      bytes,
      contentType: "video/mp4",
      filename: "clip.mp4",
      url: "https://media.example.com/clip.mp4",
      alt: "A demo",
    };
    const published = await adapter().publish(sessionOf(credentials), postOf(`A clip ${Date.now()}`, [clip]));
    const videoId = fake.posts.find((p) => p.id === published.id)!.mediaIds[0]!;
    expect(fake.chunked.uploads.get(videoId)?.category).toBe("tweet_video");
    expect(fake.alt.has(videoId)).toBe(false);
    // The fake refuses it as X documents: alt text on a video's upload is a 400.
    const answer = await fetch(`${fake.url}/2/media/metadata`, {
      method: "POST",
      headers: { authorization: `Bearer ${credentials.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ id: videoId, metadata: { alt_text: { text: "A demo" } } }),
    });
    expect(answer.status).toBe(400);
    expect(fake.specViolations).toEqual([]);
  });

  it("refuses a fifth image before anything is sent, and the fake refuses five media ids as X does", async () => {
    const uploads = fake.media.size;
    const five = [1, 2, 3, 4, 5].map((i) => fileOf("image/png", `${i}.png`));
    expect(await caught(() => adapter().publish(sessionOf(credentials), postOf("Five", five)))).toMatchObject(
      {
        kind: "refused",
        message: expect.stringMatching(/up to 4 images; the post has 5/),
      },
    );
    expect(fake.media.size).toBe(uploads);

    const ids = [...fake.media.keys(), ...fake.chunked.uploads.keys()].slice(0, 5);
    const answer = await fetch(`${fake.url}/2/tweets`, {
      method: "POST",
      headers: { authorization: `Bearer ${credentials.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ text: "Five ids", media: { media_ids: ids } }),
    });
    expect(answer.status).toBe(400);
    // The description itself says at most four (maxItems), so the fake notes the request as astray.
    expect(fake.specViolations.join("\n")).toMatch(/media_ids/);
    fake.specViolations.length = 0;
  });

  it("publishes a thread as replies, each to the part before, with the first comment a reply to the first part", async () => {
    const stamp = Date.now();
    const post = postOf(`Release 2.0 is out ${stamp}`);
    post.thread = [
      part(`What changed: threads, polls and alt text ${stamp}`, [
        fileOf("image/png", "diff.png", 2048, "The diff"),
      ]),
      part(`Thanks to everyone who tested it ${stamp}`),
    ];
    post.firstComment = `Notes: https://example.com/releases/2.0 ${stamp}`;
    const { steps } = recorded(post);
    const published = await adapter().publish(sessionOf(credentials), post);

    const [first, second, third] = published.parts!.map((p) => fake.posts.find((m) => m.id === p.id)!);
    expect(published).toMatchObject({ id: first!.id, permalink: `https://x.com/i/web/status/${first!.id}` });
    expect([first!.replyTo, second!.replyTo, third!.replyTo]).toEqual([null, first!.id, second!.id]);
    expect([second!.conversationId, third!.conversationId]).toEqual([first!.id, first!.id]);
    expect(fake.alt.get(second!.mediaIds[0]!)).toBe("The diff");
    const comment = fake.posts.find((p) => p.text === post.firstComment)!;
    expect(comment.replyTo).toBe(first!.id);
    expect(published.firstComment).toEqual({
      status: "published",
      permalink: `https://x.com/i/web/status/${comment.id}`,
      error: null,
    });
    // Each part's progress was saved before it was sent, and no step holds the token.
    expect(steps.some((s) => s.thread_sending === 2)).toBe(true);
    expect(JSON.stringify(steps)).not.toContain(String(credentials.access_token));
    expect(fake.specViolations).toEqual([]);
  });

  it("puts the poll and reply_settings on the first part; a poll with media is refused before anything is sent", async () => {
    const stamp = Date.now();
    const post = postOf(`Which network next? ${stamp}`);
    post.poll = { options: ["Mastodon", "Nostr", "Lemmy"], durationMinutes: 60 * 24 };
    post.options = { reply_settings: "ignored: not X's", x: { reply_settings: "following" } };
    post.thread = [part(`The poll runs a day ${stamp}`)];
    const published = await adapter().publish(sessionOf(credentials), post);
    const [root, reply] = published.parts!.map((p) => fake.posts.find((m) => m.id === p.id)!);
    expect(root).toMatchObject({
      poll: { options: ["Mastodon", "Nostr", "Lemmy"], duration_minutes: 1440 },
      replySettings: "following",
    });
    expect(reply).toMatchObject({ poll: null, replySettings: null, replyTo: root!.id });

    const posts = fake.posts.length;
    const uploads = fake.media.size;
    const withMedia = postOf(`Poll and picture ${stamp}`, [fileOf("image/png", "p.png")]);
    withMedia.poll = { options: ["Yes", "No"], durationMinutes: 30 };
    expect(await caught(() => adapter().publish(sessionOf(credentials), withMedia))).toMatchObject({
      kind: "refused",
      message: expect.stringMatching(/poll or media, not both/),
    });
    expect([fake.posts.length, fake.media.size]).toEqual([posts, uploads]);
    expect(fake.specViolations).toEqual([]);
  });

  it("the fake refuses what X refuses in a post: a poll beside media, a poll out of bounds, a reply to no post", async () => {
    const send = async (body: unknown) =>
      (
        await fetch(`${fake.url}/2/tweets`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${credentials.access_token}`,
            "content-type": "application/json",
          },
          body: JSON.stringify(body),
        })
      ).status;
    const image = [...fake.media.keys()][0]!;
    const poll = { options: ["a", "b"], duration_minutes: 60 };
    expect(await send({ text: "both", media: { media_ids: [image] }, poll })).toBe(400);
    expect(await send({ text: "short", poll: { ...poll, duration_minutes: 4 } })).toBe(400);
    expect(await send({ text: "nobody's reply", reply: { in_reply_to_tweet_id: "42" } })).toBe(403);
    fake.specViolations.length = 0;
  });

  it("a part whose answer was lost is found on the timeline and not sent again; the thread goes on from the next", async () => {
    const stamp = Date.now();
    const make = () => {
      const post = postOf(`Lost in the middle ${stamp}`);
      post.thread = [part(`Part two ${stamp}`), part(`Part three ${stamp}`)];
      return post;
    };
    const first = recorded(make());
    expect(
      await caught(() => adapter(losingNthPost(2)).publish(sessionOf(credentials), first.post)),
    ).toMatchObject({
      kind: "unknown",
      message: expect.stringMatching(/^part 2 of 3: /),
    });
    const saved = first.steps.at(-1)!;
    expect(saved).toMatchObject({ thread_sending: 1, sent_at: expect.any(Number) });
    const madeBefore = fake.posts.filter((p) => p.text.endsWith(String(stamp))).length;
    expect(madeBefore).toBe(2);

    const retry = recorded(make(), saved);
    const published = await adapter().publish(sessionOf(credentials), retry.post);
    const made = fake.posts.filter((p) => p.text.endsWith(String(stamp)));
    expect(made.map((p) => p.text)).toEqual([
      `Lost in the middle ${stamp}`,
      `Part two ${stamp}`,
      `Part three ${stamp}`,
    ]);
    expect(published.parts!.map((p) => p.id)).toEqual(made.map((p) => p.id));
    expect(made[2]!.replyTo).toBe(made[1]!.id);
    // The look for the lost part read replies, in the thread's conversation, after the part before.
    expect(fake.timelineReads.at(-1)).toMatchObject({ exclude: "retweets", since_id: made[0]!.id });
    expect(fake.specViolations).toEqual([]);
  });

  it("a part whose request never reached X is not found, so it is sent", async () => {
    const stamp = Date.now();
    const make = () => {
      const post = postOf(`Never reached ${stamp}`);
      post.thread = [part(`The second part ${stamp}`)];
      return post;
    };
    const first = recorded(make());
    await caught(() => adapter(losingNthPost(2, false)).publish(sessionOf(credentials), first.post));
    const retry = recorded(make(), first.steps.at(-1)!);
    const published = await adapter().publish(sessionOf(credentials), retry.post);
    const made = fake.posts.filter((p) => p.text.endsWith(String(stamp)));
    expect(made).toHaveLength(2);
    expect(published.parts!.map((p) => p.id)).toEqual(made.map((p) => p.id));
  });

  it("a first comment X refuses does not fail the post: the target says what X said", async () => {
    const stamp = Date.now();
    const post = postOf(`Comment refused ${stamp}`);
    post.firstComment = `The link ${stamp}`;
    // X's limit is reached right after the post: the comment is answered 429.
    const inWindow = fake.posts.length;
    fake.postsPerWindow = inWindow + 1;
    try {
      const published = await adapter().publish(sessionOf(credentials), post);
      expect(fake.posts.at(-1)!.id).toBe(published.id);
      expect(published.firstComment).toMatchObject({
        status: "failed",
        permalink: null,
        error: expect.stringMatching(/X's limit/),
      });
    } finally {
      fake.postsPerWindow = 1_000;
    }
  });
});
