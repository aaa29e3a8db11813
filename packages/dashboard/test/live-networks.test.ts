import { describe, expect, test } from "vitest";
import { connectBody, LIVE_NETWORKS } from "../src/lib/live-networks.ts";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("the connect body of a live account", () => {
  test("the networks a live key connects with pasted credentials, their secrets masked", () => {
    // In the contract's order, as every list of networks is.
    expect([...LIVE_NETWORKS.keys()]).toEqual(["bluesky", "discord", "telegram"]);
    const secrets = [...LIVE_NETWORKS.values()].flat().filter((field) => field.secret);
    expect(secrets.map((field) => field.name)).toEqual(["app_password", "webhook_url", "bot_token"]);
  });

  test("typed values trimmed, empty optional ones left out", () => {
    expect(
      connectBody("bluesky", form({ handle: " ana.bsky.social ", app_password: "abcd", service: " " })),
    ).toEqual({ platform: "bluesky", handle: "ana.bsky.social", app_password: "abcd" });
  });

  test("a Telegram chat is @name, or a numeric id sent as a number", () => {
    expect(connectBody("telegram", form({ bot_token: "1:x", chat: "@news" })).chat).toBe("@news");
    expect(connectBody("telegram", form({ bot_token: "1:x", chat: "-1001234567890" })).chat).toBe(
      -1001234567890,
    );
  });
});
