import { NetworkError } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { XFakeKeys } from "../../src/x/fake/oauth1.ts";
import { hmacSignature, signatureBaseString } from "../../src/x/fake/oauth1.ts";
import { XFake, type XFakeUser } from "../../src/x/fake/server.ts";
import { findXDirect, publishXDirect, xOAuth1Signer } from "../../src/x/index.ts";
import { caught, everythingIn, fileOf } from "../helpers/session.ts";

/*
 * X with OAuth 1.0a user-context credentials (the four of an app's "Keys and tokens" page), as the
 * GitHub Action's direct mode posts: every request signed with HMAC-SHA1 and checked by the X fake as X
 * documents it, a wrong secret answered 401, and a run made again finding what the earlier one posted
 * and sending only the rest.
 */

let fake: XFake;
let ada: XFakeUser;
let keys: XFakeKeys;

beforeAll(async () => {
  fake = await XFake.start();
  ada = fake.addUser({ username: "ada_ships" });
  keys = fake.addKeys(ada);
  fake.postsPerWindow = 1_000;
}, 60_000);

afterAll(() => fake?.close());

/**
 * X's worked example ("Creating a signature", docs.x.com): its keys, nonce, time and parameters give
 * this signature. The status goes in the query here (the signature covers query and form parameters
 * alike), as the API v2 sends JSON bodies, which are not signed.
 */
const EXAMPLE = {
  credentials: {
    apiKey: "xvz1evFS4wEEPTGEFPHBog",
    apiKeySecret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
    accessToken: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
    accessTokenSecret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
  },
  nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
  timestamp: 1318622958,
  url: "https://api.twitter.com/1.1/statuses/update.json",
  status: "Hello Ladies + Gentlemen, a signed OAuth request!",
  signature: "hCtSmYh+iHYCEqBWrE7C7hYmtUk=",
};

const options = () => ({ apiUrl: fake.url, signal: AbortSignal.timeout(30_000) });

describe("x: OAuth 1.0a user context", { timeout: 60_000 }, () => {
  it("signs X's documented example to X's signature, and the fake's own check computes the same", () => {
    const signer = xOAuth1Signer(EXAMPLE.credentials, {
      nonce: () => EXAMPLE.nonce,
      now: () => EXAMPLE.timestamp * 1000,
    });
    const query = new URLSearchParams({ include_entities: "true", status: EXAMPLE.status });
    const header = signer.authorization("POST", `${EXAMPLE.url}?${query}`);
    expect(header).toContain(`oauth_signature="${encodeURIComponent(EXAMPLE.signature)}"`);
    expect(header).toContain(`oauth_consumer_key="${EXAMPLE.credentials.apiKey}"`);

    const base = signatureBaseString("post", new URL(EXAMPLE.url), [
      ["include_entities", "true"],
      ["status", EXAMPLE.status],
      ["oauth_consumer_key", EXAMPLE.credentials.apiKey],
      ["oauth_nonce", EXAMPLE.nonce],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", String(EXAMPLE.timestamp)],
      ["oauth_token", EXAMPLE.credentials.accessToken],
      ["oauth_version", "1.0"],
    ]);
    expect(base).toBe(
      "POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521",
    );
    expect(hmacSignature(base, EXAMPLE.credentials.apiKeySecret, EXAMPLE.credentials.accessTokenSecret)).toBe(
      EXAMPLE.signature,
    );
  });

  it("names a missing credential before anything is sent", () => {
    expect(() => xOAuth1Signer({ ...EXAMPLE.credentials, accessTokenSecret: " " })).toThrow(
      /lack the access token secret/,
    );
  });

  it("publishes a thread with an image and its alt text, a poll and a first comment, every request signed", async () => {
    const stamp = Date.now();
    const result = await publishXDirect(
      keys,
      {
        text: `socialpub 3.0 is out ${stamp}`,
        poll: { options: ["Upgrade now", "Later"], durationMinutes: 1440 },
        replySettings: "following",
        thread: [
          {
            text: `Highlights: threads on X ${stamp}`,
            media: [fileOf("image/png", "x.png", 4096, "The new composer")],
          },
          { text: `Full notes below ${stamp}`, media: [] },
        ],
        firstComment: `https://github.com/socialpub/socialpub/releases/tag/v3.0.0 ${stamp}`,
      },
      options(),
    );
    const made = result.parts.map((p) => fake.posts.find((m) => m.id === p.id)!);
    expect(made.map((p) => p.userId)).toEqual([ada.id, ada.id, ada.id]);
    expect([made[0]!.replyTo, made[1]!.replyTo, made[2]!.replyTo]).toEqual([null, made[0]!.id, made[1]!.id]);
    expect(made[0]).toMatchObject({
      replySettings: "following",
      poll: { options: ["Upgrade now", "Later"] },
    });
    expect(fake.alt.get(made[1]!.mediaIds[0]!)).toBe("The new composer");
    expect(result).toMatchObject({ id: made[0]!.id, found: 0, firstComment: { status: "published" } });
    expect(fake.specViolations).toEqual([]);
  });

  it("a wrong secret is answered 401 as X answers it, and the error names no credential", async () => {
    const wrong = { ...keys, accessTokenSecret: `${keys.accessTokenSecret}x` };
    const error = await caught(() => publishXDirect(wrong, { text: "never" }, options()));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 401, message: expect.stringMatching(/API key and access token/) });
    for (const secret of Object.values(wrong)) expect(everythingIn(error)).not.toContain(secret);

    const readOnly = fake.addKeys(ada, "read");
    expect(
      await caught(() => publishXDirect(readOnly, { text: `read only ${Date.now()}` }, options())),
    ).toMatchObject({
      kind: "refused",
      status: 403,
    });
    // A signed request sent twice (its nonce again) is refused, as a replay.
    const signer = xOAuth1Signer(keys);
    const url = `${fake.url}/2/users/me`;
    const authorization = signer.authorization("GET", url);
    expect((await fetch(url, { headers: { authorization } })).status).toBe(200);
    expect((await fetch(url, { headers: { authorization } })).status).toBe(401);
    fake.specViolations.length = 0;
  });

  it("a run made again finds what the earlier one posted and sends only the rest; once all is there, nothing", async () => {
    const stamp = Date.now();
    const since = stamp - 1000;
    const post = {
      text: `Release 4.0 ${stamp}`,
      thread: [
        { text: `Part two ${stamp}`, media: [] },
        { text: `Part three ${stamp}`, media: [] },
      ],
      firstComment: `Notes ${stamp}`,
      since,
    };
    // The first run's second part reaches X, and its answer is lost.
    let creates = 0;
    const losing: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      if (init?.method === "POST" && url.pathname === "/2/tweets" && ++creates === 2) {
        await (await fetch(input, init)).arrayBuffer();
        throw new TypeError("fetch failed", {
          cause: Object.assign(new Error("closed"), { code: "UND_ERR_SOCKET" }),
        });
      }
      return fetch(input, init);
    };
    expect(await caught(() => publishXDirect(keys, post, { ...options(), fetch: losing }))).toMatchObject({
      kind: "unknown",
    });
    const mine = () => fake.posts.filter((p) => p.text.endsWith(String(stamp)));
    expect(mine()).toHaveLength(2);

    const texts = [post.text, ...post.thread.map((p) => p.text)];
    const before = await findXDirect(keys, { texts, firstComment: post.firstComment, since }, options());
    expect(before.parts.map((p) => p.id)).toEqual(mine().map((p) => p.id));
    expect(before.firstComment).toBeNull();

    const again = await publishXDirect(keys, post, options());
    expect(again.found).toBe(2);
    expect(mine().map((p) => p.text)).toEqual([...texts, post.firstComment]);
    expect(again.parts.map((p) => p.id)).toEqual(
      mine()
        .slice(0, 3)
        .map((p) => p.id),
    );
    expect(mine()[2]!.replyTo).toBe(mine()[1]!.id);

    const third = await publishXDirect(keys, post, options());
    expect(third).toMatchObject({ id: again.id, found: 3, firstComment: { status: "published" } });
    expect(mine()).toHaveLength(4);
    expect(fake.specViolations).toEqual([]);
  });
});
