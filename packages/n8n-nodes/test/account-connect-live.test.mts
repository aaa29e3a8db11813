import { randomBytes } from "node:crypto";
import {
  ConnectAccountBody,
  CredentialKeyring,
  createService,
  MemoryStore,
  provisionUser,
  silentLogger,
} from "@socialpub/core";
import { telegramAdapter } from "@socialpub/networks";
import { TelegramFake } from "@socialpub/networks/telegram/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONNECT_FIELDS, connectAccount } from "../nodes/SocialPublish/resources/account/connect.ts";
import { NETWORK_IDS } from "../nodes/shared/contract.generated.ts";
import { N8nHttp } from "./support/http.mts";
import { runSocialPublish } from "./support/run-node.mts";

/*
 * Account → Connect with a live key for every network: Bluesky, Telegram and Discord connect at once
 * with the credentials given in the node (here Telegram, through the real adapter and the Telegram
 * fake, which follows the Bot API's description); the other networks' connect-time choices go to
 * their own network only. The node asks, per network, exactly what the contract's connect body takes.
 */

const LIVE_KEY = `sp_live_${"N8nAccountConnectLive0123456789ab".repeat(2)}`;
const PUBLIC_URL = "http://service.test";

let telegram: TelegramFake;
let bot: { id: number; token: string };
let chat: { id: number };

beforeAll(async () => {
  telegram = await TelegramFake.start();
  ({ bot, chat } = telegram.addChannelWithBot({
    bot: { username: "releases_bot" },
    title: "Releases",
    username: "releases",
    memberCount: 42,
  }));
});

afterAll(async () => {
  await telegram?.close();
});

async function liveService() {
  const store = new MemoryStore();
  const service = createService({
    store,
    logger: silentLogger,
    rateLimit: false,
    publicUrl: PUBLIC_URL,
    credentialKeyring: new CredentialKeyring(randomBytes(32)),
    liveAdapters: { telegram: telegramAdapter({ apiUrl: telegram.url }) },
  });
  await service.start();
  await provisionUser(store, { plan: "studio", accounts: [], key: LIVE_KEY });
  const http = new N8nHttp((request) => service.fetch(request));
  const connect = (parameters: Record<string, unknown>) =>
    runSocialPublish({
      http,
      credentials: { apiKey: LIVE_KEY, baseUrl: `${PUBLIC_URL}/api/v1` },
      parameters: { resource: "account", operation: "connect", handle: "", ...parameters },
    });
  const close = async () => {
    await service.close();
    await store.close();
  };
  return { http, connect, close };
}

describe("Account → Connect with a live key, for networks that take credentials", () => {
  it("connects a Telegram channel at once with the bot token and chat given; the output is the account, never the token", async () => {
    const live = await liveService();
    try {
      const { output } = await live.connect({
        platform: "telegram",
        bot_token: ` ${bot.token} `,
        chat: "@releases",
      });
      expect(output.map((item) => item.json)).toEqual([
        { platform: "telegram", handle: "@releases", followers: 42, health: "healthy" },
      ]);
      expect(JSON.stringify(output)).not.toContain(bot.token);
      // A numeric chat id goes as a number, as the service takes it; reconnecting replaces the account.
      await live.connect({ platform: "telegram", bot_token: bot.token, chat: String(chat.id) });
      expect(live.http.to("POST", "/accounts/connect").map((request) => request.body)).toEqual([
        { platform: "telegram", bot_token: bot.token, chat: "@releases" },
        { platform: "telegram", bot_token: bot.token, chat: chat.id },
      ]);
    } finally {
      await live.close();
    }
  });

  it("sends each network's credentials and choices to that network only", async () => {
    const live = await liveService();
    const everything = {
      handle: " ana.bsky.social ",
      app_password: "abcd-efgh-ijkl-mnop",
      service: "https://pds.example.com",
      bot_token: "1:token",
      chat: "@news",
      webhook_url: "https://discord.com/api/webhooks/1/secret",
      page: "My Bakery",
      board: "Recipes",
      subreddit: "r/socialpub",
    };
    try {
      // This service has no Bluesky, Discord or Facebook adapter: it refuses after the body was sent.
      for (const platform of ["bluesky", "discord", "facebook"]) {
        await expect(live.connect({ ...everything, platform })).rejects.toThrow(
          /cannot be connected with a live key on this server/,
        );
      }
      expect(live.http.to("POST", "/accounts/connect").map((request) => request.body)).toEqual([
        {
          platform: "bluesky",
          handle: "ana.bsky.social",
          app_password: "abcd-efgh-ijkl-mnop",
          service: "https://pds.example.com",
        },
        {
          platform: "discord",
          handle: "ana.bsky.social",
          webhook_url: "https://discord.com/api/webhooks/1/secret",
        },
        { platform: "facebook", handle: "ana.bsky.social", page: "My Bakery" },
      ]);
    } finally {
      await live.close();
    }
  });
});

describe("what the node asks at connect", () => {
  /** The fields the contract's connect body takes with a live key, per network ("live <network>: …"). */
  function contractFields(): Map<string, string[]> {
    const fields = new Map<string, string[]>();
    for (const [name, schema] of Object.entries(ConnectAccountBody.shape)) {
      for (const match of (schema.description ?? "").matchAll(/\blive (\w+):/g)) {
        fields.set(match[1]!, [...(fields.get(match[1]!) ?? []), name].sort());
      }
    }
    return fields;
  }

  it("lists all twelve networks, and per network every field the contract takes for it, shown for it alone", () => {
    const platform = connectAccount.properties.find((p) => p.name === "platform")!;
    expect((platform.options as { value: string }[]).map((o) => o.value).sort()).toEqual(
      [...NETWORK_IDS].sort(),
    );
    const contract = contractFields();
    expect(contract.get("facebook")).toEqual(["page"]);
    for (const network of NETWORK_IDS) {
      // Handle is asked of every network (test keys name the sandbox account with it).
      const asked = [...(CONNECT_FIELDS[network] ?? []), ...(network === "bluesky" ? ["handle"] : [])].sort();
      expect(asked, network).toEqual(contract.get(network) ?? []);
      for (const field of CONNECT_FIELDS[network] ?? []) {
        const property = connectAccount.properties.find((p) => p.name === field)!;
        expect(property.displayOptions?.show?.platform, field).toEqual([network]);
      }
    }
    // Secrets are typed into masked fields.
    for (const secret of ["app_password", "bot_token", "webhook_url"]) {
      expect(connectAccount.properties.find((p) => p.name === secret)!.typeOptions).toEqual({
        password: true,
      });
    }
  });
});
