import type { AccountSession, NetworkAdapter } from "@socialpub/core";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { pinterestAdapter } from "../../src/index.ts";
import {
  PinterestFake,
  type PinterestFakePin,
  type PinterestFakeUser,
} from "../../src/pinterest/fake/server.ts";
import { fakeNetwork } from "../helpers/fake-network.ts";
import { type LosingFetch, losingFetch } from "../helpers/losing-fetch.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { postOf, sessionOf } from "../helpers/session.ts";

/*
 * Pinterest's findPublished against its fake, every request and answer checked against
 * pinterest-openapi.json: after a pin whose answer was lost, the pins of the board chosen at connect
 * are read back (GET /v5/boards/{board_id}/pins) for one with the text's title and description, made
 * since the attempt could publish, page by page and no further back than that.
 */

const MINUTE = 60_000;
const net = fakeNetwork(() => PinterestFake.start(), 60_000);

describe("Pinterest: a lost pin read back from the board", () => {
  let wire: LosingFetch;
  let adapter: NetworkAdapter;
  let ada: PinterestFakeUser;
  let account: AccountSession;

  beforeAll(async () => {
    const fake = net.fake;
    wire = losingFetch();
    const app = fake.addApp();
    adapter = pinterestAdapter({
      apiUrl: fake.url,
      authorizeUrl: `${fake.url}/oauth/`,
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      fetch: wire.fetch,
    });
    ada = fake.addUser({ username: "ada_pins", boards: ["Sketches", "Elsewhere"] });
    fake.signIn(ada);
    account = sessionOf(await connectByConsent(adapter, `${fake.url}/oauth/consent`));
    expect(account.credentials.board_id).toBe(ada.boards[0]!.id);
  }, 30_000);

  const image = () => ({
    bytes: SAMPLE_PNG,
    contentType: "image/png",
    filename: "a.png",
    url: "https://m/a.png",
  });
  const pinsOn = (text: string) => net.fake.pins.filter((p) => p.description === text);
  const boardReads = () => wire.requests.filter((r) => /^GET \/v5\/boards\/\d+\/pins\?/.test(r));
  const find = (text: string, since: number) =>
    adapter.findPublished!(account, { key: "3kaaaaaaaaaaa", text, since }, AbortSignal.timeout(15_000));

  let handMade = 0;
  /** Pins on a board as if made by hand, `at` each, newest last. */
  function pinnedByHand(texts: string[], at: (i: number) => number, board = ada.boards[0]!.id) {
    for (const [i, text] of texts.entries()) {
      const pin: PinterestFakePin = {
        id: `77${String(++handMade).padStart(6, "0")}`,
        userId: ada.id,
        boardId: board,
        title: text.split("\n")[0]!,
        description: text,
        link: null,
        altText: null,
        image: { contentType: "image/png", bytes: 10 },
        images: [{ contentType: "image/png", bytes: 10 }],
        createdAt: at(i),
        analytics: {},
      };
      net.fake.pins.push(pin);
    }
  }

  it("finds the pin a publish made when its answer was lost: its id and permalink, one pin", async () => {
    const text = "Made, answer lost\nwith a second line";
    const since = Date.now() - MINUTE;
    wire.loseNext(/^POST \/v5\/pins$/);
    const lost = await net.failure(() => adapter.publish(account, postOf(text, [image()])));
    expect(lost.kind).toBe("unknown");
    expect(pinsOn(text)).toHaveLength(1);
    const [pin] = pinsOn(text);
    expect(await find(text, since)).toEqual({
      id: pin!.id,
      permalink: `https://www.pinterest.com/pin/${pin!.id}/`,
    });
    expect(pinsOn(text)).toHaveLength(1);
  });

  it("answers null when the pin never reached Pinterest; sent again, it is pinned once", async () => {
    const text = "Lost on its way";
    const since = Date.now() - MINUTE;
    wire.loseNext(/^POST \/v5\/pins$/, { reaches: false });
    const lost = await net.failure(() => adapter.publish(account, postOf(text, [image()])));
    expect(lost.kind).toBe("unknown");
    expect(await find(text, since)).toBeNull();
    const again = await adapter.publish(account, postOf(text, [image()]));
    expect(pinsOn(text).map((p) => `https://www.pinterest.com/pin/${p.id}/`)).toEqual([again.permalink]);
  });

  it("takes no pin made before since, on another board, or with another title or description", async () => {
    const now = Date.now();
    pinnedByHand(["Older one"], () => now - 10 * MINUTE);
    pinnedByHand(["Other board"], () => now, ada.boards[1]!.id);
    pinnedByHand(["Almost\nthe same"], () => now);
    net.fake.pins.at(-1)!.title = "Something else";
    expect(await find("Older one", now - MINUTE)).toBeNull();
    expect(await find("Other board", now - MINUTE)).toBeNull();
    expect(await find("Almost\nthe same", now - MINUTE)).toBeNull();
    expect(await find("Older one", now - 20 * MINUTE)).not.toBeNull();
  });

  it("reads the board page after page back to since, and stops at the first older pin", async () => {
    const now = Date.now();
    pinnedByHand(["The one", ...Array.from({ length: 219 }, (_, i) => `filler ${i}`)], (i) => now + i);
    const before = boardReads().length;
    const [target] = net.fake.pins.filter((p) => p.description === "The one");
    expect(await find("The one", now - MINUTE)).toEqual({
      id: target!.id,
      permalink: `https://www.pinterest.com/pin/${target!.id}/`,
    });
    const reads = boardReads().slice(before);
    expect(reads).toHaveLength(3);
    expect(reads[0]).toMatch(/[?&]page_size=100(&|$)/);
    expect(reads[1]).toMatch(/[?&]bookmark=/);

    const more = boardReads().length;
    expect(await find("Not there", now + 10 * MINUTE)).toBeNull();
    expect(boardReads().length - more).toBe(1);
  });

  it("fails as outcome unknown, never pinning again, when more pins were made since than it reads", async () => {
    const now = Date.now();
    pinnedByHand(
      Array.from({ length: 510 }, (_, i) => `busy ${i}`),
      (i) => now + MINUTE + i,
    );
    const before = boardReads().length;
    const error = await net.failure(() => find("Far back", now));
    expect(error.kind).toBe("refused");
    expect(error.message).toMatch(/^Pinterest: outcome unknown: check the network/);
    expect(boardReads().length - before).toBe(5);
  });

  it("fails as outcome unknown, with Pinterest's words, when the board cannot be read (deleted since)", async () => {
    const board = ada.boards.shift()!;
    try {
      const error = await net.failure(() => find("Whatever", Date.now()));
      expect(error.kind).toBe("refused");
      expect(error.message).toMatch(
        /^Pinterest: outcome unknown: check the network \(the server could not read the board's pins back .*Pinterest said: 404.*Board not found/,
      );
    } finally {
      ada.boards.unshift(board);
    }
  });
});
