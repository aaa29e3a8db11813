import { type Credentials, NetworkError } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeGrowth, growth, MAX_GROWTH } from "../../../../test-support/linear-growth.ts";
import { xAdapter } from "../../src/index.ts";
import { XFake } from "../../src/x/fake/server.ts";
import { shownAs } from "../../src/x/shown-text.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { postOf, sessionOf } from "../helpers/session.ts";

/*
 * X's findPublished against the X fake: the account's timeline read back from `since`, paged, for the
 * post with exactly the text sent, as X shows it (t.co links, escaped &, < and >, a media link).
 */

let fake: XFake;
let credentials: Credentials;
let adapter: ReturnType<typeof xAdapter>;
let userId: string;

beforeAll(async () => {
  fake = await XFake.start();
  const app = fake.addApp();
  userId = fake.addUser({ username: "ada_ships" }).id;
  fake.signIn(fake.users.get(userId)!);
  fake.postsPerWindow = 1_000;
  adapter = xAdapter({ apiUrl: fake.url, authorizeUrl: `${fake.url}/i/oauth2/authorize`, ...app });
  credentials = await connectByConsent(adapter, `${fake.url}/i/oauth2/consent`);
}, 60_000);

afterAll(() => fake?.close());

const find = (text: string, since: number) =>
  adapter.findPublished!(sessionOf(credentials), { key: "k", text, since }, AbortSignal.timeout(15_000));

/** Puts `count` posts on the account's timeline directly, made at `at`. */
function fill(count: number, at: number, text = (i: number) => `filler ${at} ${i}`) {
  for (let i = 0; i < count; i++) {
    const id = String(1_800_000_000_000_000_000n + BigInt(fake.posts.length));
    fake.posts.push({ id, userId, text: text(i), mediaIds: [], createdAt: at });
  }
}

describe("x adapter: finding the post of a lost attempt on the timeline", { timeout: 60_000 }, () => {
  it("finds the post with exactly the text sent, links and & < > included, and its permalink", async () => {
    const since = Date.now() - 60_000;
    const text = "Notes & <more>: https://example.com/a?b=1&c=2 and example.org";
    const made = await adapter.publish(sessionOf(credentials), postOf(text));
    expect(await find(text, since)).toEqual(made);
    expect(await find("Notes & <more>", since)).toBeNull();
    expect(fake.specViolations).toEqual([]);
  });

  it("reads no further back than since: the same text made before is someone else's post", async () => {
    const text = `Made long ago ${Date.now()}`;
    fill(1, Date.now() - 3_600_000, () => text);
    expect(await find(text, Date.now() - 60_000)).toBeNull();
    const read = fake.timelineReads.at(-1)!;
    expect(Date.parse(read.start_time!)).toBeGreaterThan(Date.now() - 120_000);
  });

  it("follows X's pages back to since, and gives up past five of them rather than guess", async () => {
    const at = Date.now() + 600_000;
    const text = `On the third page ${at}`;
    fill(1, at, () => text);
    fill(250, at + 1);
    const reads = fake.timelineReads.length;
    expect((await find(text, at - 1000))?.permalink).toBe(
      `https://x.com/i/web/status/${fake.posts.at(-251)!.id}`,
    );
    expect(fake.timelineReads.length - reads).toBe(3);

    fill(300, at + 2);
    const error = await find(text, at - 1000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: "refused" });
    expect((error as Error).message).toMatch(/^X: outcome unknown: check the network/);
    expect(fake.specViolations).toEqual([]);
  });
});

describe("shownAs: whether a timeline post shows the text sent", () => {
  const link = (url: string, expanded: string, display = expanded.replace(/^https?:\/\//, "")) => ({
    url,
    expanded_url: expanded,
    display_url: display,
  });

  it("gives links back, unescapes & < >, and takes the media link X appends off", () => {
    const urls = [
      { start: 6, ...link("https://t.co/aaaaaaaaaa", "https://example.com/x?a=1&b=2") },
      { start: 30, url: "https://t.co/bbbbbbbbbb", media_key: "3_1" },
    ];
    const shown = "A &amp; https://t.co/aaaaaaaaaa https://t.co/bbbbbbbbbb";
    expect(shownAs("A & https://example.com/x?a=1&b=2", shown, urls)).toBe(true);
    expect(shownAs("A & https://example.com/x?a=1&b=3", shown, urls)).toBe(false);
    expect(shownAs("A &", shown, urls)).toBe(false);
    expect(shownAs("&lt; stays <", "&amp;lt; stays &lt;", [])).toBe(true);
  });

  it("takes a bare domain X gave a scheme, and a link sent as X shows it", () => {
    const urls = [{ start: 6, ...link("https://t.co/cccccccccc", "http://example.org", "example.org") }];
    expect(shownAs("Go to example.org now", "Go to https://t.co/cccccccccc now", urls)).toBe(true);
    expect(shownAs("Go to http://example.org now", "Go to https://t.co/cccccccccc now", urls)).toBe(true);
    expect(shownAs("Go to example.net now", "Go to https://t.co/cccccccccc now", urls)).toBe(false);
  });

  it("costs in proportion to the text and its links", () => {
    const shape = (n: number) => {
      const urls = Array.from({ length: n }, (_, i) => ({
        start: i * 24,
        ...link(`https://t.co/${String(i).padStart(10, "0")}`, `https://example.com/${i}`),
      }));
      const shown = urls.map((u) => u.url).join(" ") + " &amp;".repeat(n);
      const sent = urls.map((u) => u.expanded_url).join(" ") + " &".repeat(n);
      return { shown, sent, urls };
    };
    // Large enough that each run takes tens of milliseconds: at 5,000 links a run took about 2 ms, where
    // V8's tiering and a busy machine's noise measured 3–4× from 5,000 to 10,000 but 1.6–2.3× from then on.
    const inputs = { small: shape(20_000), large: shape(40_000) };
    const measured = growth((size) => {
      const { sent, shown, urls } = inputs[size];
      if (!shownAs(sent, shown, urls)) throw new Error("the shape should match");
    });
    expect(measured.ratio, describeGrowth("shownAs", measured)).toBeLessThanOrEqual(MAX_GROWTH);
  }, 120_000);
});
