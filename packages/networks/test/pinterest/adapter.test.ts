import type { Credentials, NetworkAdapter } from "@socialpub/core";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { PINTEREST_DEFAULT_SCOPES, pinterestAdapter } from "../../src/index.ts";
import { PinterestFake, type PinterestFakeUser } from "../../src/pinterest/fake/server.ts";
import { fakeNetwork } from "../helpers/fake-network.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { postOf, sessionOf } from "../helpers/session.ts";

/*
 * Pinterest's connect and pins against its fake, which refuses a token lacking any scope
 * pinterest-openapi.json lists for the operation (POST /v5/pins: boards:read, boards:write, pins:read,
 * pins:write), and checks every request and answer against the same description.
 */

const net = fakeNetwork(() => PinterestFake.start(), 60_000);

const image = () => ({
  bytes: SAMPLE_PNG,
  contentType: "image/png",
  filename: "a.png",
  url: "https://m/a.png",
});

describe("Pinterest: scopes, and the token answer's lifetime", () => {
  let ada: PinterestFakeUser;
  const adapterWith = (options: { scopes?: readonly string[] } = {}): NetworkAdapter => {
    const app = net.fake.addApp();
    return pinterestAdapter({
      apiUrl: net.fake.url,
      authorizeUrl: `${net.fake.url}/oauth/`,
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      ...options,
    });
  };
  const connect = (adapter: NetworkAdapter): Promise<Credentials> =>
    connectByConsent(adapter, `${net.fake.url}/oauth/consent`);

  beforeAll(() => {
    ada = net.fake.addUser({ username: "ada_pins", boards: ["Sketches"] });
    net.fake.signIn(ada);
  });

  it("asks for every scope Pinterest requires to pin, and pins with the grant", async () => {
    const adapter = adapterWith();
    const authorize = new URL(
      adapter.oauth!.authorizeUrl({ state: "s", redirectUri: "http://127.0.0.1/cb", codeChallenge: null }),
    );
    expect(authorize.searchParams.get("scope")!.split(",")).toEqual([
      "boards:read",
      "boards:write",
      "pins:read",
      "pins:write",
      "user_accounts:read",
    ]);
    const credentials = await connect(adapter);
    expect(String(credentials.scope).split(",").sort()).toEqual([...PINTEREST_DEFAULT_SCOPES].sort());
    const pinned = await adapter.publish(sessionOf(credentials), postOf("Scoped\nfor pins", [image()]));
    expect(net.fake.pins.at(-1)).toMatchObject({ userId: ada.id, description: "Scoped\nfor pins" });
    expect(pinned.permalink).toBe(`https://www.pinterest.com/pin/${net.fake.pins.at(-1)!.id}/`);
  });

  it("a grant without boards:write connects, but its pin is refused, naming the scope", async () => {
    const adapter = adapterWith({ scopes: PINTEREST_DEFAULT_SCOPES.filter((s) => s !== "boards:write") });
    const credentials = await connect(adapter);
    const before = net.fake.pins.length;
    const refused = await net.failure(() =>
      adapter.publish(sessionOf(credentials), postOf("Not allowed", [image()])),
    );
    expect(refused).toMatchObject({ kind: "refused", status: 403 });
    expect(refused.message).toMatch(/scopes granted at connect.*lacks the scope boards:write/);
    expect(net.fake.pins.length).toBe(before);
  });

  it("a grant without pins:read is refused a pin too, as the description lists it", async () => {
    const adapter = adapterWith({ scopes: PINTEREST_DEFAULT_SCOPES.filter((s) => s !== "pins:read") });
    const credentials = await connect(adapter);
    const pinned = net.fake.pins.length;
    const refused = await net.failure(() =>
      adapter.publish(sessionOf(credentials), postOf("Needs read too", [image()])),
    );
    expect(refused.message).toMatch(/lacks the scope pins:read/);
    expect(net.fake.pins.length).toBe(pinned);
  });

  it.each([-3600, 0])(
    "a token answer saying expires_in %d leaves the token's end unknown; the token still pins",
    async (said) => {
      const adapter = adapterWith();
      net.fake.oauth.saidExpiresIn = said;
      try {
        const credentials = await connect(adapter);
        expect(credentials.expires_at).toBeNull();
        await adapter.publish(sessionOf(credentials), postOf(`Lasting ${said}`, [image()]));
        const refreshed = await adapter.oauth!.refresh(credentials, AbortSignal.timeout(15_000));
        expect(refreshed.expires_at).toBeNull();
        expect(refreshed.access_token).not.toBe(credentials.access_token);
      } finally {
        net.fake.oauth.saidExpiresIn = null;
      }
      const credentials = await connect(adapter);
      expect(credentials.expires_at).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    },
  );
});
