import type { Credentials } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { xAdapter } from "../../src/index.ts";
import { XFake } from "../../src/x/fake/server.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { postOf, sessionOf } from "../helpers/session.ts";

/*
 * X's figures through the adapter against the X fake: public_metrics mapped to the contract's four
 * figures, and reads of one account that start together sent as one lookup (ids=…), as X allows.
 */

let fake: XFake;
let credentials: Credentials;
let adapter: ReturnType<typeof xAdapter>;

beforeAll(async () => {
  fake = await XFake.start();
  const app = fake.addApp();
  fake.signIn(fake.addUser({ username: "ada_ships" }));
  adapter = xAdapter({ apiUrl: fake.url, authorizeUrl: `${fake.url}/i/oauth2/authorize`, ...app });
  credentials = await connectByConsent(adapter, `${fake.url}/i/oauth2/consent`);
}, 60_000);

afterAll(() => fake?.close());

describe("x adapter: figures", { timeout: 60_000 }, () => {
  it("reads public_metrics, batching reads that start together into one lookup", async () => {
    const published = [];
    for (const text of ["First", "Second", "Third"]) {
      published.push(await adapter.publish(sessionOf(credentials), postOf(text)));
    }
    fake.posts[0]!.metrics = {
      impression_count: 900,
      like_count: 31,
      reply_count: 4,
      repost_count: 3,
      quote_count: 2,
    };
    fake.posts[1]!.metrics = { impression_count: 10, like_count: 1 };
    const signal = AbortSignal.timeout(30_000);
    const lookups = fake.lookups.length;
    const figures = await Promise.all([
      ...published.map((p) => adapter.readMetrics!(sessionOf(credentials), p, signal)),
      adapter.readMetrics!(sessionOf(credentials), { id: "1234", permalink: "" }, signal),
    ]);
    expect(figures).toEqual([
      { reach: 900, likes: 31, comments: 4, shares: 5 },
      { reach: 10, likes: 1, comments: 0, shares: 0 },
      { reach: 0, likes: 0, comments: 0, shares: 0 },
      // A post X no longer shows: nothing read, nothing lowered.
      {},
    ]);
    expect(fake.lookups.slice(lookups)).toEqual([[...published.map((p) => p.id), "1234"]]);
    expect(fake.specViolations).toEqual([]);
  });

  it("a token X refuses is said as X says it, without the token", async () => {
    const post = fake.posts[0]!;
    const error = await adapter.readMetrics!(
      sessionOf({ ...credentials, access_token: "not-a-token" }),
      { id: post.id, permalink: "" },
      AbortSignal.timeout(30_000),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "reauth", status: 401 });
    expect(String((error as Error).message)).not.toContain("not-a-token");
  });
});
