import { randomBytes } from "node:crypto";
import { provisionUser } from "@socialpub/core";
import { DiscordFake } from "@socialpub/networks/discord/fake";
import { TelegramFake } from "@socialpub/networks/telegram/fake";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openSqliteStore } from "../../server/src/index.ts";
import { CHROMIUM_ARGS, findChromium, INSTALL_HINT } from "../scripts/chromium.ts";
import { callApi, type ServerProcess, startServerProcess } from "../scripts/server-process.ts";
import { inChromium, NO_CHROMIUM } from "./support/chromium.ts";

/*
 * The Accounts view with a live key, against the real server publishing through the real Telegram and
 * Discord adapters to the networks' fakes (which follow the networks' own API descriptions): connect,
 * an account the network stops accepting shown as needing reconnecting, reconnect, disconnect — and no
 * credential typed into the page kept by it, shown back, or written by the server.
 */

const LIVE_KEY = `sp_live_${"DashboardLiveAccounts01234567890".repeat(2)}`;
const SEEN_WITHIN = { timeout: 20_000 };

interface Account {
  platform: string;
  handle: string;
  followers: number;
  health: string;
}

let telegram: TelegramFake;
let discord: DiscordFake;
let server: ServerProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`No Chromium for the end-to-end test. ${INSTALL_HINT}`);
  [telegram, discord] = await Promise.all([TelegramFake.start(), DiscordFake.start()]);
  server = await startServerProcess(
    ["--dashboard", "--allow-private-urls"],
    {
      SOCIALPUB_SECRET_KEY: randomBytes(32).toString("base64"),
      SOCIALPUB_TELEGRAM_API_URL: telegram.url,
      SOCIALPUB_DISCORD_API_URL: discord.url,
    },
    {
      seed: async (db) => {
        const store = openSqliteStore(db);
        try {
          await provisionUser(store, { plan: "studio", name: "Live User", accounts: [], key: LIVE_KEY });
        } finally {
          await store.close();
        }
      },
    },
  );
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("dialog", (dialog) => void dialog.accept());
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await Promise.all([telegram?.close(), discord?.close()]);
});

const row = (platform: string) => page.locator(`tr[data-platform="${platform}"]`);
const accounts = async () =>
  (await callApi<{ data: Account[] }>(server, LIVE_KEY, "GET", "/accounts")).body.data;

/** Nothing the page keeps, shows or holds in a field, nor anything the server logged, has the secret. */
async function expectNowhere(secret: string) {
  const kept = await page.evaluate(() => [
    ...Object.values(sessionStorage),
    ...Object.values(localStorage),
    document.documentElement.outerHTML,
    ...[...document.querySelectorAll("input")].map((input) => input.value),
  ]);
  for (const text of kept) expect(text).not.toContain(secret);
  expect(server.output()).not.toContain(secret);
}

describe.skipIf(NO_CHROMIUM)(inChromium("live accounts in the dashboard, signed in with a live key"), () => {
  const bot = { token: "" };
  let channel: { id: number };
  let hook: ReturnType<DiscordFake["addWebhook"]>;

  test("the Accounts view shows the networks a live key can connect, none connected", async () => {
    bot.token = telegram.addBot({ username: "releases_bot" }).token;
    channel = telegram.addChat({ type: "channel", title: "Releases", username: "releases", memberCount: 42 });
    telegram.setMember(channel.id, Number(bot.token.split(":")[0]), "administrator", { canPost: true });
    hook = discord.addWebhook({ name: "Announcements" });

    await page.goto(server.url);
    await page.getByLabel("API key").fill(LIVE_KEY);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator("header.top").getByText("Live User").waitFor(SEEN_WITHIN);
    expect(await page.locator(".brand").textContent()).toContain("live");
    await page.getByRole("link", { name: "Accounts" }).click();
    await page.getByRole("heading", { name: "Live accounts" }).waitFor(SEEN_WITHIN);
    for (const platform of ["bluesky", "telegram", "discord"]) {
      expect(await row(platform).textContent()).toContain("not connected");
    }
    // X connects through its own page: a button, no credential fields (oauth-connect.e2e.test.ts).
    expect(await row("x").getByRole("button", { name: "Connect X" }).count()).toBe(1);
    expect(await row("x").locator("input").count()).toBe(0);
    // The sandbox's controls are for test keys only.
    expect(await page.getByLabel(/Health of the/).count()).toBe(0);
  });

  test("Telegram and Discord connect with their credentials, checked by the network; a wrong one says why", async () => {
    await page.getByLabel("Webhook URL for Discord").fill(`${discord.url}/api/webhooks/1/not-a-webhook`);
    await page.getByRole("button", { name: "Connect Discord" }).click();
    await expect.poll(() => page.getByRole("alert").textContent(), SEEN_WITHIN).toMatch(/Discord/);
    expect(await row("discord").textContent()).toContain("not connected");

    await page.getByLabel("Webhook URL for Discord").fill(hook.url);
    await page.getByRole("button", { name: "Connect Discord" }).click();
    await page.getByLabel("Bot token for Telegram").fill(bot.token);
    await page.getByLabel("Chat for Telegram").fill("@releases");
    await page.getByRole("button", { name: "Connect Telegram" }).click();

    await expect.poll(() => row("telegram").textContent(), SEEN_WITHIN).toContain("@releases");
    await expect.poll(() => row("discord").textContent(), SEEN_WITHIN).toContain("healthy");
    expect(await row("telegram").textContent()).toContain("42 followers");
    expect(await row("telegram").textContent()).toContain("healthy");
    const [discordAccount] = (await accounts()).filter((account) => account.platform === "discord");
    expect(await row("discord").textContent()).toContain(discordAccount!.handle);
    expect(await page.getByRole("alert").count()).toBe(0);
    await expectNowhere(bot.token);
    await expectNowhere(hook.token);
  });

  test("an account whose credentials the network refuses shows as needing reconnecting, and Reconnect fixes it", async () => {
    telegram.revokeToken(bot.token);
    const post = await callApi<{ status: string }>(server, LIVE_KEY, "POST", "/posts", {
      caption: "Goes nowhere: the bot's token was revoked.",
      platforms: ["telegram"],
    });
    expect(post.status).toBe(201);
    await expect.poll(() => row("telegram").textContent(), SEEN_WITHIN).toContain("reauth required");
    expect(await row("telegram").textContent()).toContain("reconnect to publish again");

    const fresh = telegram.addBot({ username: "releases_bot" });
    telegram.setMember(channel.id, fresh.id, "administrator", { canPost: true });
    await row("telegram").getByRole("button", { name: "Reconnect Telegram" }).click();
    await page.getByLabel("Bot token for Telegram").fill(fresh.token);
    await page.getByLabel("Chat for Telegram").fill(String(channel.id));
    await page.getByRole("button", { name: "Reconnect Telegram" }).click();
    await expect.poll(() => row("telegram").textContent(), SEEN_WITHIN).toContain("healthy");
    expect(await page.getByLabel("Bot token for Telegram").count()).toBe(0);
    expect((await accounts()).find((account) => account.platform === "telegram")?.health).toBe("healthy");
    await expectNowhere(fresh.token);
  });

  test("Disconnect removes the account", async () => {
    await row("discord").getByRole("button", { name: "Disconnect Discord" }).click();
    await expect.poll(() => row("discord").textContent(), SEEN_WITHIN).toContain("not connected");
    expect((await accounts()).map((account) => account.platform)).toEqual(["telegram"]);
    await expectNowhere(hook.token);
  });
});
