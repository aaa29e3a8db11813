// The Bluesky adapter against a real PDS on loopback (see src/bluesky/peer). When the PDS is not
// installed the suite is skipped, saying why, outside CI (NO_PDS); in CI beforeAll fails and says how to
// install it.

import { type AddressInfo, createServer } from "node:net";
import type { AppBskyEmbedExternal, AppBskyEmbedImages, AppBskyFeedPost } from "@atproto/api";
import { adaptText, NetworkError } from "@socialpub/core";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withProcessSlot } from "../../../../test-support/process-slots.ts";
import { blueskyAdapter } from "../../src/bluesky/index.ts";
import { type FakeAppView, startFakeAppView } from "../../src/bluesky/peer/app-view.ts";
import {
  PDS_INSTALL_COMMAND,
  PDS_NODE_VERSION,
  PDS_VERSION,
} from "../../src/bluesky/peer/pds-install-location.ts";
import {
  type BlueskyPeer,
  NO_PDS,
  needsPds,
  type PeerAccount,
  startBlueskyPeer,
} from "../../src/bluesky/peer/start-peer.ts";
import { everythingIn } from "../helpers/session.ts";
import { countOf, loggingFetch, methodOf, sessionOf, solidPng } from "./helpers.ts";

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Every failure a test saw, checked at the end for passwords and tokens. */
const errors: unknown[] = [];
// biome-ignore lint/suspicious/noExplicitAny: a caught error is read field by field by the assertions
const keep = (error: unknown): any => {
  errors.push(error);
  return error;
};

let peer: BlueskyPeer;
let appView: FakeAppView;
let alice: PeerAccount;
let bob: PeerAccount;
const signal = () => AbortSignal.timeout(30_000);
/** The service's connect context with --dev: the peer is on loopback, so private addresses pass. */
const context = () => ({ signal: signal(), checkUserUrl: async (value: string) => new URL(value) });

beforeAll(async () => {
  if (NO_PDS) return;
  appView = await startFakeAppView();
  // A slot of the suite's process bound until the PDS is up: its start is what costs.
  peer = await withProcessSlot(() => startBlueskyPeer({ rateLimits: true, appViewUrl: appView.url }));
  appView.usePds(peer.url);
  [alice, bob] = await Promise.all([peer.createAccount("alice"), peer.createAccount("bob")]);
}, 150_000);

describe("bluesky test peer", () => {
  it("fails saying how to install the PDS when it is not installed", async () => {
    const previous = process.env.SOCIALPUB_PDS_CACHE;
    process.env.SOCIALPUB_PDS_CACHE = "/nonexistent/socialpub-cache";
    try {
      await expect(startBlueskyPeer()).rejects.toThrow(
        `not installed in /nonexistent/socialpub-cache/bluesky-pds-${PDS_VERSION}-node${PDS_NODE_VERSION}: run ${PDS_INSTALL_COMMAND}`,
      );
    } finally {
      if (previous === undefined) delete process.env.SOCIALPUB_PDS_CACHE;
      else process.env.SOCIALPUB_PDS_CACHE = previous;
    }
  });
});

afterAll(async () => {
  await peer?.stop();
  await appView?.close();
});

function connectFields(account: PeerAccount, password = account.appPassword) {
  return { handle: account.handle, app_password: password, service: peer.url };
}

async function readRecord(account: PeerAccount, rkey: string): Promise<AppBskyFeedPost.Record> {
  const owner = await peer.ownerAgent(account);
  const { data } = await owner.com.atproto.repo.getRecord({
    repo: account.did,
    collection: "app.bsky.feed.post",
    rkey,
  });
  return data.value as AppBskyFeedPost.Record;
}

async function postKeys(account: PeerAccount): Promise<string[]> {
  const owner = await peer.ownerAgent(account);
  const { data } = await owner.com.atproto.repo.listRecords({
    repo: account.did,
    collection: "app.bsky.feed.post",
  });
  return data.records.map((record) => record.uri.split("/").pop() as string);
}

const input = (
  text: string,
  key: string,
  extra: Partial<Parameters<ReturnType<typeof blueskyAdapter>["publish"]>[1]> = {},
) => ({
  postId: "post_01JDXYZ0000000000000000000",
  text,
  media: [],
  key,
  signal: signal(),
  step: null,
  saveStep: async () => {},
  ...extra,
});

describe.skipIf(NO_PDS)(needsPds("bluesky adapter against a real PDS"), { timeout: 60_000 }, () => {
  it("connects with an app password and publishes a text whose link and mention become facets", async () => {
    const adapter = blueskyAdapter();
    const connected = await adapter.connect(connectFields(alice), context());
    expect(connected.handle).toBe(alice.handle);
    // The handle as Bluesky shows it, with its @, is taken too.
    const withAt = await adapter.connect({ ...connectFields(alice), handle: `@${alice.handle}` }, context());
    expect(withAt.handle).toBe(alice.handle);
    expect(connected.health).toBe("healthy");
    expect(connected.credentials.did).toBe(alice.did);
    expect(JSON.stringify(connected)).not.toContain(alice.password);

    const text = `Shipped 🚀 with @${bob.handle} — notes at https://example.com/releases/v2 ✨`;
    const published = await adapter.publish(
      sessionOf(connected),
      input(text, "post_01JDXYZ0000000000000000001:bluesky"),
    );
    expect(published.permalink).toBe(`https://bsky.app/profile/${alice.handle}/post/${published.id}`);

    const record = await readRecord(alice, published.id);
    expect(record.text).toBe(text);
    const bytes = Buffer.from(text, "utf8");
    const slice = (start: number, end: number) => bytes.subarray(start, end).toString("utf8");
    const facets = record.facets ?? [];
    expect(facets).toHaveLength(2);
    const [mention, link] = facets;
    expect(slice(mention!.index.byteStart, mention!.index.byteEnd)).toBe(`@${bob.handle}`);
    expect(mention!.features[0]).toMatchObject({ $type: "app.bsky.richtext.facet#mention", did: bob.did });
    expect(slice(link!.index.byteStart, link!.index.byteEnd)).toBe("https://example.com/releases/v2");
    expect(link!.features[0]).toMatchObject({ uri: "https://example.com/releases/v2" });
    // A link and no image: the link gets a card.
    expect((record.embed as AppBskyEmbedExternal.Main).external.uri).toBe("https://example.com/releases/v2");
  });

  it("leaves a mention of a handle that does not resolve as plain text", async () => {
    const adapter = blueskyAdapter();
    const account = sessionOf(await adapter.connect(connectFields(alice), context()));
    const published = await adapter.publish(
      account,
      input("hello @nobody-here.test", "key-unresolved-mention"),
    );
    const record = await readRecord(alice, published.id);
    expect(record.facets ?? []).toEqual([]);
  });

  it("uploads an image as a blob and posts it with its alt text", async () => {
    const adapter = blueskyAdapter();
    const account = sessionOf(await adapter.connect(connectFields(alice), context()));
    const media = [
      {
        bytes: SAMPLE_PNG,
        contentType: "image/png",
        filename: "dot.png",
        url: "https://example.com/dot.png",
        alt: "A red dot",
      },
    ];
    const published = await adapter.publish(account, input("An image", "key-image", { media }));
    const record = await readRecord(alice, published.id);
    const embed = record.embed as AppBskyEmbedImages.Main;
    expect(embed.$type).toBe("app.bsky.embed.images");
    expect(embed.images).toHaveLength(1);
    expect(embed.images[0]!.alt).toBe("A red dot");
    expect(embed.images[0]!.image.mimeType).toBe("image/png");
    expect(embed.images[0]!.aspectRatio).toEqual({ width: 1, height: 1 });

    const wide = { ...media[0]!, bytes: solidPng(3, 2), filename: "wide.png", alt: "A grey band" };
    const second = await adapter.publish(account, input("A wide image", "key-image-wide", { media: [wide] }));
    const wideEmbed = (await readRecord(alice, second.id)).embed as AppBskyEmbedImages.Main;
    expect(wideEmbed.images[0]!.aspectRatio).toEqual({ width: 3, height: 2 });
    const owner = await peer.ownerAgent(alice);
    const blob = await owner.com.atproto.sync.getBlob({
      did: alice.did,
      cid: embed.images[0]!.image.ref.toString(),
    });
    expect(Buffer.from(blob.data).equals(Buffer.from(SAMPLE_PNG))).toBe(true);
  });

  it("refuses media Bluesky does not take before uploading anything", async () => {
    const log: string[] = [];
    const adapter = blueskyAdapter({ fetch: loggingFetch(log) });
    const account = sessionOf(await adapter.connect(connectFields(alice), context()));
    // Bluesky takes video as MP4 only.
    const video = {
      bytes: new Uint8Array(10),
      contentType: "video/quicktime",
      filename: "clip.mov",
      url: "https://example.com/clip.mov",
    };
    const error = await adapter
      .publish(account, input("A clip", "key-video", { media: [video] }))
      .catch(keep);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.kind).toBe("refused");
    expect(error.message).toBe("Bluesky takes videos as MP4 (video/mp4); clip.mov is video/quicktime");
    expect(countOf(log, "com.atproto.repo.uploadBlob")).toBe(0);
  });

  it("publishes a 301-grapheme caption once core has adapted it to 300; the PDS itself refuses 301", async () => {
    const adapter = blueskyAdapter();
    const account = sessionOf(await adapter.connect(connectFields(alice), context()));
    // Family emoji are one grapheme each but many UTF-16 units and bytes: the limit is in graphemes.
    const caption = `${"👨‍👩‍👧 ".repeat(150)}x`;
    expect([...new Intl.Segmenter().segment(caption)]).toHaveLength(301);

    const tooLong = await adapter.publish(account, input(caption, "key-301")).catch(keep);
    expect(tooLong).toBeInstanceOf(NetworkError);
    expect(tooLong.kind).toBe("refused");
    expect(tooLong.status).toBe(400);
    expect(tooLong.message).toContain("grapheme too big (maximum 300, got 301)");

    const adapted = adaptText(caption, "bluesky", false);
    expect([...new Intl.Segmenter().segment(adapted)].length).toBeLessThanOrEqual(300);
    const published = await adapter.publish(account, input(adapted, "key-300"));
    expect((await readRecord(alice, published.id)).text).toBe(adapted);
  });

  it("checks the service address with the service's public-address rule before logging in", async () => {
    const log: string[] = [];
    const adapter = blueskyAdapter({ fetch: loggingFetch(log) });
    const checked: string[] = [];
    const refusing = {
      signal: signal(),
      checkUserUrl: async (value: string, field: string) => {
        checked.push(`${field}=${value}`);
        throw new Error(`${field} must be a public address`);
      },
    };
    await expect(adapter.connect(connectFields(alice), refusing)).rejects.toThrow(
      "service must be a public address",
    );
    expect(checked).toEqual([`service=${peer.url}`]);
    expect(log).toEqual([]);
  });

  it("shortens a text within 300 graphemes but over Bluesky's 3000 bytes instead of having it refused", async () => {
    const adapter = blueskyAdapter();
    const account = sessionOf(await adapter.connect(connectFields(alice), context()));
    const dense = "👨‍👩‍👧".repeat(300); // 300 graphemes, 5400 bytes
    const published = await adapter.publish(account, input(dense, "key-dense"));
    const text = (await readRecord(alice, published.id)).text;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(3000);
    expect(text.endsWith("…")).toBe(true);
    expect(dense.startsWith(text.slice(0, -1))).toBe(true);
  });

  it("refuses a wrong app password with the PDS's reason, and the account's own password", async () => {
    const adapter = blueskyAdapter();
    const wrong = await adapter.connect(connectFields(alice, "aaaa-bbbb-cccc-dddd"), context()).catch(keep);
    expect(wrong).toBeInstanceOf(NetworkError);
    expect(wrong.kind).toBe("refused");
    expect(wrong.message).toBe(
      `Bluesky refused the login for ${alice.handle}: Invalid identifier or password`,
    );
    expect(wrong.message).not.toContain("aaaa-bbbb-cccc-dddd");

    const own = await adapter.connect(connectFields(alice, alice.password), context()).catch(keep);
    expect(own).toBeInstanceOf(NetworkError);
    expect(own.kind).toBe("refused");
    expect(own.message).toContain("app password");
  });

  it("refreshes an expiring session instead of logging in again, and saves it before using it", async () => {
    const log: string[] = [];
    let now = Date.now();
    const adapter = blueskyAdapter({ fetch: loggingFetch(log), now: () => now });
    const account = sessionOf(await adapter.connect(connectFields(alice), context()), log);
    await adapter.publish(account, input("first", "key-refresh-1"));
    await adapter.publish(account, input("second", "key-refresh-2"));
    expect(countOf(log, "com.atproto.server.createSession")).toBe(1);
    expect(countOf(log, "com.atproto.server.refreshSession")).toBe(0);

    now += 3 * 60 * 60_000; // past the access token's two hours
    log.length = 0;
    const before = account.credentials;
    await adapter.publish(account, input("third", "key-refresh-3"));
    expect(countOf(log, "com.atproto.server.createSession")).toBe(0);
    expect(countOf(log, "com.atproto.server.refreshSession")).toBe(1);
    expect(log.indexOf("saveCredentials")).toBeGreaterThan(log.indexOf("com.atproto.server.refreshSession"));
    expect(log.indexOf("saveCredentials")).toBeLessThan(log.indexOf("com.atproto.repo.createRecord"));
    expect(account.credentials.refresh_jwt).not.toBe(before.refresh_jwt);
  });

  it("refreshes when the PDS no longer takes the access token", async () => {
    const log: string[] = [];
    const adapter = blueskyAdapter({ fetch: loggingFetch(log) });
    const connected = await adapter.connect(connectFields(alice), context());
    // Unexpired as far as the adapter can read, but not signed by the PDS.
    const claims = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 })).toString(
      "base64url",
    );
    const forged = `eyJhbGciOiJIUzI1NiJ9.${claims}.c2lnbmF0dXJl`;
    const account = sessionOf({
      ...connected,
      credentials: { ...connected.credentials, access_jwt: forged },
    });
    log.length = 0;
    const published = await adapter.publish(account, input("after a bad token", "key-bad-token"));
    expect(countOf(log, "com.atproto.server.refreshSession")).toBe(1);
    expect(countOf(log, "com.atproto.server.createSession")).toBe(0);
    expect((await readRecord(alice, published.id)).text).toBe("after a bad token");
  });

  it("asks for a reconnect when the app password was revoked", async () => {
    const carol = await peer.createAccount("carol");
    let now = Date.now();
    const adapter = blueskyAdapter({ now: () => now });
    const account = sessionOf(await adapter.connect(connectFields(carol), context()));
    const owner = await peer.ownerAgent(carol);
    await owner.com.atproto.server.revokeAppPassword({ name: carol.appPasswordName });
    now += 3 * 60 * 60_000;
    const error = await adapter.publish(account, input("revoked", "key-revoked")).catch(keep);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.kind).toBe("reauth");
    expect(await postKeys(carol)).toEqual([]);
  });

  it("never posts twice: a timed-out create is found by its key, and a retry reuses the record key", async () => {
    const key = "3kabcdefghij2"; // the service's keys are TIDs: used as the record key as they are
    let loseAnswer = true;
    const log: string[] = [];
    const adapter = blueskyAdapter({
      fetch: async (request, init) => {
        const method = methodOf(request);
        log.push(method);
        const answer = await fetch(request, init);
        if (method === "com.atproto.repo.createRecord" && loseAnswer) {
          loseAnswer = false;
          // The PDS made the post; its answer is lost on the way back.
          throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
        }
        return answer;
      },
    });
    const account = sessionOf(await adapter.connect(connectFields(bob), context()));

    const lost = await adapter.publish(account, input("exactly once", key)).catch(keep);
    expect(lost).toBeInstanceOf(NetworkError);
    expect(lost.kind).toBe("unknown");

    const since = Date.now() - 60_000;
    const found = await adapter.findPublished!(account, { key, text: "exactly once", since }, signal());
    expect(found).not.toBeNull();
    const otherKey = "post_01JDXYZ0000000000000000009:bluesky";
    expect(
      await adapter.findPublished!(account, { key: otherKey, text: "exactly once", since }, signal()),
    ).toBeNull();

    const retried = await adapter.publish(account, input("exactly once", key));
    expect(retried).toEqual(found);
    expect(retried.id).toBe(key);
    expect(countOf(log, "com.atproto.repo.createRecord")).toBe(2);
    const keys = await postKeys(bob);
    expect(keys.filter((k) => k === retried.id)).toHaveLength(1);
    expect((await readRecord(bob, retried.id)).text).toBe("exactly once");
  });

  it("reads the account's followers again through the PDS after they changed", async () => {
    const adapter = blueskyAdapter();
    appView.setFollowers(alice.did, 42);
    const account = sessionOf(await adapter.connect(connectFields(alice), context()));
    appView.setFollowers(alice.did, 58);
    expect(await adapter.readFollowers!(account, signal())).toBe(58);
    expect(appView.requests).toContain("app.bsky.actor.getProfile");
  });

  it("reads likes, replies and reposts through the PDS, and reports no reach", async () => {
    const adapter = blueskyAdapter();
    appView.setFollowers(alice.did, 42);
    const connected = await adapter.connect(connectFields(alice), context());
    expect(connected.followers).toBe(42);
    const account = sessionOf(connected);
    const published = await adapter.publish(account, input("count me", "key-metrics"));
    appView.setCounts(`at://${alice.did}/app.bsky.feed.post/${published.id}`, {
      likeCount: 7,
      replyCount: 2,
      repostCount: 3,
      quoteCount: 1,
    });
    const metrics = await adapter.readMetrics!(account, published, signal());
    expect(metrics).toEqual({ likes: 7, comments: 2, shares: 4 });
    expect(metrics).not.toHaveProperty("reach");
    expect(appView.requests).toContain("app.bsky.feed.getPosts");
  });

  it("classifies a PDS that cannot be reached as retry", async () => {
    const adapter = blueskyAdapter({ timeoutMs: 5_000 });
    const connected = await adapter.connect(connectFields(bob), context());
    const pds = `http://127.0.0.1:${await closedPort()}`;
    const account = sessionOf({ ...connected, credentials: { ...connected.credentials, pds } });
    const error = await adapter.publish(account, input("nowhere", "key-unreachable")).catch(keep);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.kind).toBe("retry");
  });

  it("says which PDS could not be reached at connect, and why: refused, or a host that does not resolve", async () => {
    const adapter = blueskyAdapter({ timeoutMs: 5_000 });
    const port = await closedPort();
    const refused = await adapter
      .connect({ ...connectFields(bob), service: `http://127.0.0.1:${port}` }, context())
      .catch(keep);
    expect(refused).toBeInstanceOf(NetworkError);
    expect(refused.kind).toBe("retry");
    expect(refused.message).toBe(
      `Bluesky could not be reached while logging in to http://127.0.0.1:${port}: 127.0.0.1:${port} refused the connection`,
    );
    const unknown = await adapter
      .connect({ ...connectFields(bob), service: "http://pds.nowhere.invalid" }, context())
      .catch(keep);
    expect(unknown.kind).toBe("retry");
    expect(unknown.message).toBe(
      "Bluesky could not be reached while logging in to http://pds.nowhere.invalid: host pds.nowhere.invalid does not resolve",
    );
  });

  it("answers the 31st login within 5 minutes with retry and the PDS's hint", async () => {
    const dave = await peer.createAccount("dave");
    const adapter = blueskyAdapter();
    let limited: NetworkError | undefined;
    let logins = 0;
    while (!limited && logins < 40) {
      logins++;
      try {
        await adapter.connect(connectFields(dave), context());
      } catch (error) {
        limited = keep(error) as NetworkError;
      }
    }
    expect(logins).toBe(31);
    expect(limited).toBeInstanceOf(NetworkError);
    expect(limited!.kind).toBe("retry");
    expect(limited!.status).toBe(429);
    expect(limited!.retryAfterMs).toBeGreaterThan(0);
    expect(limited!.retryAfterMs).toBeLessThanOrEqual(5 * 60_000);
  }, 120_000);

  it("no error carries a password or a session token: not in its message, stack, cause or fields", () => {
    expect(errors.length).toBeGreaterThanOrEqual(8);
    const accounts = [alice, bob];
    for (const error of errors) {
      const text = everythingIn(error);
      for (const account of accounts) {
        expect(text).not.toContain(account.password);
        expect(text).not.toContain(account.appPassword);
      }
      expect(text).not.toContain("aaaa-bbbb-cccc-dddd");
      expect(text).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+/); // a JWT
    }
  });
});
