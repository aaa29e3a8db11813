import { randomBytes } from "node:crypto";
import { provisionUser } from "@socialpub/core";
import { XFake } from "@socialpub/networks/x/fake";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withProcessSlot } from "../../../test-support/process-slots.ts";
import { openSqliteStore } from "../../server/src/index.ts";
import { FrontProxy } from "../../server/test/support/front-proxy.ts";
import { CHROMIUM_ARGS, findChromium, INSTALL_HINT } from "../scripts/chromium.ts";
import { callApi, type ServerProcess, startServerProcess } from "../scripts/server-process.ts";
import { inChromium, NO_CHROMIUM } from "./support/chromium.ts";

/*
 * Connecting an OAuth network from the Accounts view with a live key, in a browser, against the real
 * server and the X fake (which follows X's own API description): a server not set up for X says which
 * settings it lacks; one that is opens X's consent page in a new tab, and once the person grants access
 * there and X sends that tab to the server's callback, the Accounts view shows the account without
 * being reloaded.
 */

const LIVE_KEY = `sp_live_${"DashboardOAuthConnect0123456789ab".repeat(2)}`;
const SEEN_WITHIN = { timeout: 30_000 };
/** Each case starts a server and drives a browser on a machine others share: generous. */
const CASE_TIMEOUT = 300_000;

let x: XFake;
let front: FrontProxy;
let browser: Browser;
const servers: ServerProcess[] = [];

const seed = async (db: string) => {
  const store = openSqliteStore(db);
  try {
    await provisionUser(store, { plan: "studio", name: "Live User", accounts: [], key: LIVE_KEY });
  } finally {
    await store.close();
  }
};

async function startServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const server = await withProcessSlot(() =>
    startServerProcess(
      ["--dashboard"],
      { SOCIALPUB_SECRET_KEY: randomBytes(32).toString("base64"), ...env },
      { seed },
    ),
  );
  servers.push(server);
  return server;
}

async function openAccounts(server: ServerProcess): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(server.url);
  await page.getByLabel("API key").fill(LIVE_KEY);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator("header.top").getByText("Live User").waitFor(SEEN_WITHIN);
  await page.getByRole("link", { name: "Accounts" }).click();
  await page.getByRole("heading", { name: "Live accounts" }).waitFor(SEEN_WITHIN);
  return page;
}

beforeAll(async () => {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`No Chromium for the end-to-end test. ${INSTALL_HINT}`);
  [x, front] = await Promise.all([XFake.start(), FrontProxy.start()]);
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.stop()));
  await Promise.all([x?.close(), front?.close()]);
});

describe.skipIf(NO_CHROMIUM)(inChromium("connecting an OAuth network from the dashboard"), () => {
  test(
    "a server not set up for X says which settings it lacks, and opens nothing",
    async () => {
      const server = await startServer({
        SOCIALPUB_PUBLIC_URL: "",
        SOCIALPUB_X_CLIENT_ID: "",
        SOCIALPUB_X_CLIENT_SECRET: "",
      });
      const page = await openAccounts(server);
      // Every network that connects through its own page has its Connect button, set up or not.
      for (const name of [
        "X",
        "LinkedIn",
        "Facebook",
        "Instagram",
        "Threads",
        "YouTube",
        "TikTok",
        "Pinterest",
        "Reddit",
      ]) {
        expect(await page.getByRole("button", { name: `Connect ${name}`, exact: true }).count(), name).toBe(
          1,
        );
      }
      expect(await page.getByLabel("Page for Facebook (optional)").count()).toBe(1);
      const row = page.locator('tr[data-platform="x"]');
      expect(await row.textContent()).toContain("not connected");
      let opened = 0;
      page.context().on("page", () => opened++);
      await row.getByRole("button", { name: "Connect X" }).click();
      await expect
        .poll(() => page.getByRole("alert").textContent(), SEEN_WITHIN)
        .toMatch(
          /X cannot be connected on this server yet: it needs SOCIALPUB_PUBLIC_URL and SOCIALPUB_X_CLIENT_ID and SOCIALPUB_X_CLIENT_SECRET/,
        );
      expect(await page.getByRole("alert").textContent()).toMatch(/docs\/networks\.md/);
      expect(opened).toBe(0);
      // The button stays, for another try once the server is set up.
      expect(await row.getByRole("button", { name: "Connect X" }).count()).toBe(1);
      // Pinterest asks for its board at connect (optional); its missing settings are named the same way.
      await page.getByLabel("Board for Pinterest (optional)").fill("Recipes");
      await page.getByRole("button", { name: "Connect Pinterest" }).click();
      await expect
        .poll(() => page.getByRole("alert").textContent(), SEEN_WITHIN)
        .toMatch(/Pinterest cannot be connected on this server yet: .*SOCIALPUB_PINTEREST_CLIENT_ID/);
      expect(opened).toBe(0);
      await page.close();
    },
    CASE_TIMEOUT,
  );

  test(
    "Connect X opens X's page; granting access there shows the account here without a reload",
    async () => {
      const app = x.addApp();
      x.signIn(x.addUser({ username: "ana_ships", followers: 321 }));
      const server = await startServer({
        SOCIALPUB_PUBLIC_URL: front.url,
        SOCIALPUB_X_API_URL: x.url,
        SOCIALPUB_X_AUTH_URL: `${x.url}/i/oauth2/authorize`,
        SOCIALPUB_X_CLIENT_ID: app.clientId,
        SOCIALPUB_X_CLIENT_SECRET: app.clientSecret,
      });
      front.target = new URL(server.url);
      const page = await openAccounts(server);
      // Marks this document: a reload would lose the mark.
      await page.evaluate(() => {
        (window as unknown as { unreloaded: boolean }).unreloaded = true;
      });
      const row = page.locator('tr[data-platform="x"]');

      const opening = page.context().waitForEvent("page", SEEN_WITHIN);
      await row.getByRole("button", { name: "Connect X" }).click();
      const consent = await opening;
      await consent.waitForLoadState();
      expect(new URL(consent.url()).origin).toBe(x.url);
      // Opened without a handle on the dashboard.
      expect(await consent.evaluate(() => window.opener)).toBeNull();
      await expect.poll(() => row.getByRole("status").textContent(), SEEN_WITHIN).toMatch(/Waiting for X/);
      expect(await row.getByRole("link", { name: "open X's page" }).getAttribute("rel")).toBe(
        "noopener noreferrer",
      );

      await consent.getByRole("button", { name: "Authorize app" }).click();
      await consent.getByText("@ana_ships is connected").waitFor(SEEN_WITHIN);
      expect(consent.url()).toMatch(new RegExp(`^${front.url}/api/v1/accounts/callback/x\\?`));

      await expect.poll(() => row.textContent(), SEEN_WITHIN).toContain("@ana_ships");
      expect(await row.textContent()).toContain("321 followers");
      expect(await row.textContent()).toContain("healthy");
      expect(await row.getByRole("status").count()).toBe(0);
      expect(await row.getByRole("button", { name: "Reconnect X" }).count()).toBe(1);
      expect(await row.getByRole("button", { name: "Disconnect X" }).count()).toBe(1);
      expect(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded)).toBe(
        true,
      );
      const accounts = await callApi<{ data: { platform: string; handle: string }[] }>(
        server,
        LIVE_KEY,
        "GET",
        "/accounts",
      );
      expect(accounts.body.data.map((a) => [a.platform, a.handle])).toEqual([["x", "@ana_ships"]]);
      // Neither the client secret nor a token ever reached the page or the server's output.
      const html = await page.content();
      expect(html).not.toContain(app.clientSecret);
      expect(server.output()).not.toContain(app.clientSecret);
      await consent.close();
      await page.close();
    },
    CASE_TIMEOUT,
  );
});
