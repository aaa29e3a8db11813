import { describe, expect, it } from "vitest";
import {
  accountFingerprint,
  OAUTH_FIELDS,
  OAUTH_NETWORKS,
  oauthConnectBody,
} from "../src/lib/oauth-networks.ts";

/* What the Accounts view sends to start an OAuth connect, and how it tells that the callback landed. */

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.set(name, value);
  return data;
}

describe("connecting through a network's page", () => {
  it("sends the network and the connect-time fields that were filled in, trimmed", () => {
    expect(oauthConnectBody("x", form({}))).toEqual({ platform: "x" });
    expect(oauthConnectBody("reddit", form({ subreddit: "  r/socialpub " }))).toEqual({
      platform: "reddit",
      subreddit: "r/socialpub",
    });
    expect(oauthConnectBody("pinterest", form({ board: "" }))).toEqual({ platform: "pinterest" });
    expect(oauthConnectBody("pinterest", form({ board: "Recipes", subreddit: "ignored" }))).toEqual({
      platform: "pinterest",
      board: "Recipes",
    });
  });

  it("asks connect-time fields only of OAuth networks, and none is a secret or required", () => {
    for (const [network, fields] of OAUTH_FIELDS) {
      expect(OAUTH_NETWORKS.has(network)).toBe(true);
      for (const field of fields) expect([field.secret, field.required]).toEqual([false, false]);
    }
  });

  it("sees a new account, or a change of one, as the callback having landed", () => {
    const before = accountFingerprint(undefined);
    const after = accountFingerprint({ platform: "x", handle: "@a", followers: 1, health: "healthy" });
    expect(after).not.toBe(before);
    const reauth = accountFingerprint({
      platform: "x",
      handle: "@a",
      followers: 1,
      health: "reauth_required",
    });
    expect(reauth).not.toBe(after);
  });
});
