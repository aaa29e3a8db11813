// Rich posts on Bluesky against a real PDS on loopback (see src/bluesky/peer): threads as replies with
// their root and parent, up to four images or one video with alt text, the first comment as a reply to
// the first part, and a thread that stops between parts continuing from the first part not published,
// never posting one twice. Every check reads the records back from the PDS.

import type {
  AppBskyEmbedExternal,
  AppBskyEmbedImages,
  AppBskyEmbedVideo,
  AppBskyFeedPost,
} from "@atproto/api";
import { TID } from "@atproto/common-web";
import { type MediaFile, NetworkError, type PublishInput, type PublishStep } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withProcessSlot } from "../../../../test-support/process-slots.ts";
import { blueskyAdapter } from "../../src/bluesky/index.ts";
import {
  type BlueskyPeer,
  NO_PDS,
  needsPds,
  type PeerAccount,
  startBlueskyPeer,
} from "../../src/bluesky/peer/start-peer.ts";
import { countOf, loggingFetch, methodOf, sessionOf, solidPng, tinyMp4 } from "./helpers.ts";

let peer: BlueskyPeer;
const signal = () => AbortSignal.timeout(30_000);
const context = () => ({ signal: signal(), checkUserUrl: async (value: string) => new URL(value) });

beforeAll(async () => {
  if (NO_PDS) return;
  peer = await withProcessSlot(() => startBlueskyPeer());
}, 150_000);

afterAll(async () => {
  await peer?.stop();
});

interface ReadBack {
  rkey: string;
  uri: string;
  cid: string;
  value: AppBskyFeedPost.Record;
}

/** Every post of the account as the PDS holds it, in record key order. */
async function postsOf(account: PeerAccount): Promise<ReadBack[]> {
  const owner = await peer.ownerAgent(account);
  const { data } = await owner.com.atproto.repo.listRecords({
    repo: account.did,
    collection: "app.bsky.feed.post",
    reverse: true,
  });
  return data.records.map((record) => ({
    rkey: record.uri.split("/").pop() as string,
    uri: record.uri,
    cid: record.cid,
    value: record.value as AppBskyFeedPost.Record,
  }));
}

async function postAt(account: PeerAccount, rkey: string): Promise<ReadBack> {
  const found = (await postsOf(account)).find((post) => post.rkey === rkey);
  if (!found) throw new Error(`no post ${rkey} on the PDS`);
  return found;
}

const ref = (post: ReadBack) => ({ uri: post.uri, cid: post.cid });

/** A publish step kept as the service keeps it: what saveStep stored, given back to the next attempt. */
function keptStep(refuse?: (step: PublishStep) => boolean) {
  const kept = { step: null as PublishStep | null, saves: 0 };
  const save = async (step: PublishStep) => {
    if (refuse?.(step)) throw new NetworkError("bluesky", "retry", "the attempt was cut off");
    kept.saves++;
    kept.step = step;
  };
  return { kept, save };
}

function input(text: string, key: string, extra: Partial<PublishInput> = {}): PublishInput {
  return {
    postId: "post_01JDXYZ0000000000000000000",
    text,
    media: [],
    key,
    signal: signal(),
    step: null,
    saveStep: async () => {},
    ...extra,
  };
}

const image = (name: string, alt: string, width = 2, height = 1): MediaFile => ({
  bytes: solidPng(width, height),
  contentType: "image/png",
  filename: `${name}.png`,
  url: `https://example.com/${name}.png`,
  alt,
});

const parts = (...texts: string[]) => texts.map((text) => ({ text, media: [] as MediaFile[] }));

async function connected(account: PeerAccount, adapter = blueskyAdapter()) {
  const fields = { handle: account.handle, app_password: account.appPassword, service: peer.url };
  return sessionOf(await adapter.connect(fields, context()));
}

/** A fresh service key for each post: a TID of now, as the service's keys are. */
const nextKey = () => TID.nextStr();

/**
 * An adapter whose second createRecord of a publish is lost: the PDS makes the record and its answer is
 * lost (`lose: "answer"`), or the request never reaches the PDS (`"request"`). `creates` counts them.
 */
function losingSecondCreate() {
  const losing = {
    creates: 0,
    lose: "answer" as "answer" | "request",
    adapter: blueskyAdapter({
      fetch: async (request, init) => {
        if (methodOf(request) === "com.atproto.repo.createRecord" && ++losing.creates === 2) {
          if (losing.lose === "answer") await fetch(request, init);
          throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
        }
        return fetch(request, init);
      },
    }),
  };
  return losing;
}

describe.skipIf(NO_PDS)(needsPds("bluesky rich posts against a real PDS"), { timeout: 60_000 }, () => {
  it("publishes a 3-part thread, each part a reply to the one before under the first, in order", async () => {
    const alice = await peer.createAccount("alice");
    const adapter = blueskyAdapter();
    const account = await connected(alice, adapter);
    const published = await adapter.publish(
      account,
      input("Release 2.0 is out (1/3)", nextKey(), {
        thread: parts("What changed: notes at https://example.com/v2 (2/3)", "Thanks to everyone (3/3)"),
      }),
    );

    const posts = await postsOf(alice);
    expect(posts.map((post) => post.value.text)).toEqual([
      "Release 2.0 is out (1/3)",
      "What changed: notes at https://example.com/v2 (2/3)",
      "Thanks to everyone (3/3)",
    ]);
    const [first, second, third] = posts as [ReadBack, ReadBack, ReadBack];
    expect(first.value.reply).toBeUndefined();
    expect(second.value.reply).toEqual({ root: ref(first), parent: ref(first) });
    expect(third.value.reply).toEqual({ root: ref(first), parent: ref(second) });
    // Each part's createdAt keeps the order too, for apps that sort by it.
    expect(first.value.createdAt <= second.value.createdAt).toBe(true);
    expect(second.value.createdAt <= third.value.createdAt).toBe(true);

    // Facets and a link card per part, as for a single post.
    const link = second.value.facets?.[0];
    expect(link?.features[0]).toMatchObject({ uri: "https://example.com/v2" });
    expect((second.value.embed as AppBskyEmbedExternal.Main).external.uri).toBe("https://example.com/v2");

    expect(published.id).toBe(first.rkey);
    expect(published.parts?.map((part) => part.id)).toEqual(posts.map((post) => post.rkey));
    expect(published.parts?.map((part) => part.permalink)).toEqual(
      posts.map((post) => `https://bsky.app/profile/${alice.handle}/post/${post.rkey}`),
    );
    expect(published.firstComment).toBeUndefined();
  });

  it("posts four images with their alt text and sizes, and refuses a fifth before uploading anything", async () => {
    const bob = await peer.createAccount("bob");
    const log: string[] = [];
    const adapter = blueskyAdapter({ fetch: loggingFetch(log) });
    const account = await connected(bob, adapter);
    const media = [
      image("one", "A wide grey band", 3, 2),
      image("two", "A tall grey band", 2, 3),
      image("three", "A square", 2, 2),
      image("four", "Another wide band", 4, 1),
    ];
    const published = await adapter.publish(account, input("Four pictures", nextKey(), { media }));
    const embed = (await postAt(bob, published.id)).value.embed as AppBskyEmbedImages.Main;
    expect(embed.$type).toBe("app.bsky.embed.images");
    expect(embed.images.map((item) => item.alt)).toEqual([
      "A wide grey band",
      "A tall grey band",
      "A square",
      "Another wide band",
    ]);
    expect(embed.images.map((item) => item.aspectRatio)).toEqual([
      { width: 3, height: 2 },
      { width: 2, height: 3 },
      { width: 2, height: 2 },
      { width: 4, height: 1 },
    ]);
    const owner = await peer.ownerAgent(bob);
    const blob = await owner.com.atproto.sync.getBlob({
      did: bob.did,
      cid: embed.images[1]!.image.ref.toString(),
    });
    expect(Buffer.from(blob.data).equals(Buffer.from(media[1]!.bytes))).toBe(true);

    log.length = 0;
    const five = [...media, image("five", "One too many")];
    const error = await adapter
      .publish(account, input("Five pictures", nextKey(), { media: five }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).kind).toBe("refused");
    expect((error as NetworkError).message).toBe("Bluesky takes at most 4 images a post; this one has 5");
    expect(countOf(log, "com.atproto.repo.uploadBlob")).toBe(0);
    expect(countOf(log, "com.atproto.repo.createRecord")).toBe(0);
  });

  it("posts one video with its alt text and size; refuses a video beside an image, or a part's bad media, before posting", async () => {
    const carol = await peer.createAccount("carol");
    const log: string[] = [];
    const adapter = blueskyAdapter({ fetch: loggingFetch(log) });
    const account = await connected(carol, adapter);
    const video: MediaFile = {
      bytes: tinyMp4(1280, 720),
      contentType: "video/mp4",
      filename: "demo.mp4",
      url: "https://example.com/demo.mp4",
      alt: "The new dashboard, clicked through",
    };
    const published = await adapter.publish(account, input("A demo", nextKey(), { media: [video] }));
    const embed = (await postAt(carol, published.id)).value.embed as AppBskyEmbedVideo.Main;
    expect(embed.$type).toBe("app.bsky.embed.video");
    expect(embed.alt).toBe("The new dashboard, clicked through");
    expect(embed.aspectRatio).toEqual({ width: 1280, height: 720 });
    expect(embed.video.mimeType).toBe("video/mp4");
    expect(embed.video.size).toBe(video.bytes.byteLength);

    // Filmed upright: the track's matrix turns 1920×1080 a quarter, so it shows 1080 wide.
    const upright = { ...video, bytes: tinyMp4(1920, 1080, true), alt: "" };
    const second = await adapter.publish(account, input("Upright", nextKey(), { media: [upright] }));
    const uprightEmbed = (await postAt(carol, second.id)).value.embed as AppBskyEmbedVideo.Main;
    expect(uprightEmbed.aspectRatio).toEqual({ width: 1080, height: 1920 });
    expect(uprightEmbed.alt).toBeUndefined();

    log.length = 0;
    const mixed = await adapter
      .publish(account, input("Both", nextKey(), { media: [video, image("one", "A band")] }))
      .catch((e: unknown) => e);
    expect((mixed as NetworkError).kind).toBe("refused");
    expect((mixed as NetworkError).message).toContain("one video a post, alone");
    const mov = { ...video, contentType: "video/quicktime", filename: "demo.mov" };
    const inPart = await adapter
      .publish(account, input("First", nextKey(), { thread: [{ text: "Second", media: [mov] }] }))
      .catch((e: unknown) => e);
    expect((inPart as NetworkError).kind).toBe("refused");
    expect((inPart as NetworkError).message).toBe(
      "part 2 of 2: Bluesky takes videos as MP4 (video/mp4); demo.mov is video/quicktime",
    );
    expect(countOf(log, "com.atproto.repo.uploadBlob")).toBe(0);
    expect(countOf(log, "com.atproto.repo.createRecord")).toBe(0);
  });

  it("adds the first comment as a reply to the thread's first part", async () => {
    const dave = await peer.createAccount("dave");
    const adapter = blueskyAdapter();
    const account = await connected(dave, adapter);
    const published = await adapter.publish(
      account,
      input("Launch day", nextKey(), {
        thread: parts("The details"),
        firstComment: "Sign up at https://example.com/launch",
      }),
    );
    const posts = await postsOf(dave);
    expect(posts).toHaveLength(3);
    const first = posts.find((post) => post.rkey === published.id) as ReadBack;
    const comment = posts.find((post) => post.value.text === "Sign up at https://example.com/launch");
    expect(comment?.value.reply).toEqual({ root: ref(first), parent: ref(first) });
    expect(comment?.value.facets?.[0]?.features[0]).toMatchObject({ uri: "https://example.com/launch" });
    expect(published.firstComment).toEqual({
      status: "published",
      permalink: `https://bsky.app/profile/${dave.handle}/post/${comment?.rkey}`,
      error: null,
    });
    // The comment's key comes after every part's: the records sort as the thread reads.
    expect(posts.map((post) => post.value.text)).toEqual(["Launch day", "The details", comment?.value.text]);
  });

  it("continues a thread cut off between parts from the first part not published, never posting one twice", async () => {
    const erin = await peer.createAccount("erin");
    const log: string[] = [];
    const adapter = blueskyAdapter({ fetch: loggingFetch(log) });
    const account = await connected(erin, adapter);
    const key = nextKey();
    const thread = parts("two", "three");
    // The store refuses the step that would send part 2: the attempt stops there.
    const { kept, save } = keptStep((step) => step.thread_sending === 1);
    const cut = await adapter
      .publish(account, input("one", key, { thread, saveStep: save }))
      .catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(NetworkError);
    expect((cut as NetworkError).kind).toBe("retry");
    expect((await postsOf(erin)).map((post) => post.value.text)).toEqual(["one"]);

    // The next attempt starts from what was saved.
    const resumed = keptStep();
    const published = await adapter.publish(
      account,
      input("one", key, { thread, step: kept.step, saveStep: resumed.save }),
    );
    const posts = await postsOf(erin);
    expect(posts.map((post) => post.value.text)).toEqual(["one", "two", "three"]);
    expect(posts[1]!.value.reply).toEqual({ root: ref(posts[0]!), parent: ref(posts[0]!) });
    expect(posts[2]!.value.reply).toEqual({ root: ref(posts[0]!), parent: ref(posts[1]!) });
    expect(published.parts?.map((part) => part.id)).toEqual(posts.map((post) => post.rkey));
    expect(countOf(log, "com.atproto.repo.createRecord")).toBe(3);

    // An attempt that knows nothing of the step sends the same keys: the PDS has them, none is doubled.
    const again = await adapter.publish(account, input("one", key, { thread }));
    expect(again).toEqual(published);
    expect(await postsOf(erin)).toHaveLength(3);
  });

  it("finds a part whose answer was lost by reading its key, and sends one that never arrived", async () => {
    const frank = await peer.createAccount("frank");
    // Part 2: the PDS makes it and its answer is lost, or the request never reaches the PDS.
    const losing = losingSecondCreate();
    const { adapter } = losing;
    const account = await connected(frank, adapter);
    const thread = parts("two", "three");

    for (const [what, expected] of [
      ["answer", 1],
      ["request", 0],
    ] as const) {
      losing.lose = what;
      losing.creates = 0;
      const key = nextKey();
      const { kept, save } = keptStep();
      const lost = await adapter
        .publish(account, input("one", key, { thread, saveStep: save }))
        .catch((e: unknown) => e);
      expect(lost).toBeInstanceOf(NetworkError);
      expect((lost as NetworkError).kind).toBe("unknown");
      expect((lost as NetworkError).message).toMatch(/^part 2 of 3: /);
      expect(kept.step?.thread_sending).toBe(1);
      const before = (await postsOf(frank)).filter((post) => post.value.text === "two").length;

      const resumed = keptStep();
      const published = await adapter.publish(
        account,
        input("one", key, { thread, step: kept.step, saveStep: resumed.save }),
      );
      // Found at its key (no second create), or sent now that the PDS is known not to have it.
      expect(losing.creates).toBe(expected === 1 ? 3 : 4);
      const mine = (await postsOf(frank)).filter((post) => published.parts?.some((p) => p.id === post.rkey));
      expect(mine.map((post) => post.value.text)).toEqual(["one", "two", "three"]);
      expect(mine[2]!.value.reply).toEqual({ root: ref(mine[0]!), parent: ref(mine[1]!) });
      const after = (await postsOf(frank)).filter((post) => post.value.text === "two").length;
      expect(after - before).toBe(1 - expected);
    }
    expect(await postsOf(frank)).toHaveLength(6);
  });

  it("after a stop while the first comment was added, finds it at its key, or adds it once when it never arrived", async () => {
    const grace = await peer.createAccount("grace");
    // The comment: the PDS makes it and its answer is lost, or the request never reaches the PDS.
    const losing = losingSecondCreate();
    const { adapter } = losing;
    const account = await connected(grace, adapter);
    const comment = "Notes at https://example.com/notes";

    for (const what of ["answer", "request"] as const) {
      losing.lose = what;
      losing.creates = 0;
      const key = nextKey();
      // The service stops before it saves what became of the comment: the step says it was being sent.
      const { kept, save } = keptStep((step) => step.thread_comment === "failed");
      const stopped = await adapter
        .publish(account, input(`Post (${what} lost)`, key, { firstComment: comment, saveStep: save }))
        .catch((e: unknown) => e);
      expect(stopped).toBeInstanceOf(NetworkError);
      expect(kept.step?.thread_comment).toBe("sending");

      const resumed = keptStep();
      const published = await adapter.publish(
        account,
        input(`Post (${what} lost)`, key, { firstComment: comment, step: kept.step, saveStep: resumed.save }),
      );
      // Found at its key (no second create), or added now that the PDS is known not to have it.
      expect(losing.creates).toBe(what === "answer" ? 2 : 3);
      const first = await postAt(grace, published.id);
      const comments = (await postsOf(grace)).filter((post) => post.value.reply?.parent.uri === first.uri);
      expect(comments.map((post) => post.value.text)).toEqual([comment]);
      expect(published.firstComment).toEqual({
        status: "published",
        permalink: `https://bsky.app/profile/${grace.handle}/post/${comments[0]!.rkey}`,
        error: null,
      });
      expect(resumed.kept.step?.thread_comment).toBe("published");
    }
  });
});
