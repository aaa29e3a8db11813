import { ConnectAccountBody, NETWORK_IDS } from "@socialpub/core";
import { describe, expect, it } from "vitest";
import { LIVE_NETWORKS } from "../src/lib/live-networks.ts";
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

  it("sends Facebook's Page, chosen at connect", () => {
    expect(oauthConnectBody("facebook", form({ page: " My Bakery " }))).toEqual({
      platform: "facebook",
      page: "My Bakery",
    });
  });

  it("offers every network a live key connects, and asks each what the contract's connect body takes for it", () => {
    // The contract names, per field, the live networks that take it ("live <network>: …").
    const contract = new Map<string, string[]>();
    for (const [name, schema] of Object.entries(ConnectAccountBody.shape)) {
      for (const match of (schema.description ?? "").matchAll(/\blive (\w+):/g)) {
        contract.set(match[1]!, [...(contract.get(match[1]!) ?? []), name].sort());
      }
    }
    expect(contract.get("facebook")).toEqual(["page"]);
    for (const network of NETWORK_IDS) {
      const fields = LIVE_NETWORKS.get(network) ?? OAUTH_FIELDS.get(network) ?? [];
      expect(fields.map((f) => f.name).sort(), network).toEqual(contract.get(network) ?? []);
    }
    // Twelve networks: three that take pasted credentials, nine that connect through their own page.
    expect([...LIVE_NETWORKS.keys(), ...OAUTH_NETWORKS].sort()).toEqual([...NETWORK_IDS].sort());
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
