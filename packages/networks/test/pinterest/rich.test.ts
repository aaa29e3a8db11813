import type { Credentials, NetworkAdapter } from "@socialpub/core";
import { SAMPLE_JPEG, SAMPLE_PNG } from "@socialpub/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { pinterestAdapter } from "../../src/index.ts";
import type { PinterestFakeUser } from "../../src/pinterest/fake/server.ts";
import { PinterestFake } from "../../src/pinterest/fake/server.ts";
import { fakeNetwork } from "../helpers/fake-network.ts";
import { type LosingFetch, losingFetch } from "../helpers/losing-fetch.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { caught, postOf, sessionOf } from "../helpers/session.ts";
import { stepped } from "../helpers/stepped.ts";

/*
 * Rich posts on Pinterest against its fake, which checks every request against pinterest-openapi.json:
 * carousel pins (2–5 images as multiple_image_base64, in order), the pin's alt text, and the options
 * board_id, title and link, a pin made on another board than the connected one looked for there after
 * a lost answer.
 */

const net = fakeNetwork(() => PinterestFake.start(), 60_000);

const png = (alt?: string) => ({
  bytes: SAMPLE_PNG,
  contentType: "image/png",
  filename: "a.png",
  url: "https://m/a.png",
  ...(alt && { alt }),
});
const jpeg = (alt?: string) => ({ ...png(alt), bytes: SAMPLE_JPEG, contentType: "image/jpeg" });

let ada: PinterestFakeUser;
let wire: LosingFetch;
let adapter: NetworkAdapter;
let credentials: Credentials;

beforeAll(async () => {
  ada = net.fake.addUser({ username: "ada_rich", boards: ["Launches", "Moodboard"] });
  net.fake.signIn(ada);
  const app = net.fake.addApp();
  wire = losingFetch();
  adapter = pinterestAdapter({
    apiUrl: net.fake.url,
    authorizeUrl: `${net.fake.url}/oauth/`,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    fetch: wire.fetch,
  });
  credentials = await connectByConsent(adapter, `${net.fake.url}/oauth/consent`);
});

const session = () => sessionOf(credentials);

describe("Pinterest: carousel pins", () => {
  it("pins three images as one carousel, in order, with the first alt text given as the pin's", async () => {
    const published = await adapter.publish(
      session(),
      postOf("Our new shelf\nthree views", [png(), jpeg("The shelf from the front"), png("Its side")]),
    );
    const pin = net.fake.pins.at(-1)!;
    expect(pin.id).toBe(published.id);
    expect(pin.images.map((i) => i.contentType)).toEqual(["image/png", "image/jpeg", "image/png"]);
    expect(pin).toMatchObject({
      boardId: ada.boards[0]!.id,
      title: "Our new shelf",
      altText: "The shelf from the front",
    });
  });

  it("a single image stays an image pin with its alt text", async () => {
    await adapter.publish(session(), postOf("One shot", [jpeg("A single chair")]));
    expect(net.fake.pins.at(-1)).toMatchObject({
      images: [{ contentType: "image/jpeg" }],
      altText: "A single chair",
    });
  });

  it("six images are refused before anything is sent", async () => {
    const pins = net.fake.pins.length;
    const refused = await caught(() =>
      adapter.publish(session(), postOf("Too many", [png(), png(), png(), png(), png(), png()])),
    );
    expect(refused).toMatchObject({ kind: "refused" });
    expect((refused as Error).message).toMatch(/2 to 5 images/);
    expect(net.fake.pins.length).toBe(pins);
  });
});

describe("Pinterest: options", () => {
  it("board_id, title and link from options.pinterest replace the connected board and what the text gives", async () => {
    const other = ada.boards[1]!.id;
    await adapter.publish(session(), {
      ...postOf("First line\nsee https://example.com/from-text", [png()]),
      options: { board_id: other, title: "Chosen title", link: "https://example.com/chosen" },
    });
    expect(net.fake.pins.at(-1)).toMatchObject({
      boardId: other,
      title: "Chosen title",
      link: "https://example.com/chosen",
      description: "First line\nsee https://example.com/from-text",
    });
  });

  it("a board the account does not have is refused, naming Pinterest's answer", async () => {
    const refused = await caught(() =>
      adapter.publish(session(), { ...postOf("Nowhere", [png()]), options: { board_id: "123" } }),
    );
    expect(refused).toMatchObject({ kind: "refused", status: 404 });
  });

  it("a pin on an optional board whose answer was lost is found there on the retry, not pinned twice", async () => {
    const other = ada.boards[1]!.id;
    const run = stepped({
      ...postOf("Lost on the other board", [png(), jpeg()]),
      options: { board_id: other, title: "Other board" },
    });
    wire.loseNext(/^POST \/v5\/pins$/);
    const lost = await caught(() => adapter.publish(session(), run.post));
    expect(lost).toMatchObject({ kind: "unknown" });
    const again = await adapter.publish(session(), run.again());
    const made = net.fake.pins.filter((p) => p.description === "Lost on the other board");
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ id: again.id, boardId: other, title: "Other board" });
  });
});
