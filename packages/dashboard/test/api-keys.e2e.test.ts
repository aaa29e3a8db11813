import { randomBytes } from "node:crypto";
import { keyHint, provisionUser } from "@socialpub/core";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openSqliteStore } from "../../server/src/index.ts";
import { CHROMIUM_ARGS, findChromium, INSTALL_HINT } from "../scripts/chromium.ts";
import { callApi, type ServerProcess, startServerProcess } from "../scripts/server-process.ts";
import { hintOf } from "../src/lib/key-hint.ts";

// Settings → API keys in Chromium against the real server (a process on port 0, SQLite): keys made,
// copied, listed by hint and revoked from the page, a test key managing test keys only, and the page
// signing out when it revokes its own key. Also the narrow-screen layout (390 px) of the tables.
const LIVE_KEY = `sp_live_${"DashboardApiKeysPage0123456789ab".repeat(2)}`;
const SEEN_WITHIN = { timeout: 20_000 };

let server: ServerProcess;
let browser: Browser;
let page: Page;
/** A test key of the same user for the narrow screen, made before the page revokes its own key. */
let narrowKey: string;

beforeAll(async () => {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`No Chromium for the end-to-end test. ${INSTALL_HINT}`);
  server = await startServerProcess(
    ["--dashboard"],
    { SOCIALPUB_SECRET_KEY: randomBytes(32).toString("base64") },
    {
      seed: async (db) => {
        const store = openSqliteStore(db);
        try {
          await provisionUser(store, { plan: "studio", name: "Key Holder", accounts: ["x"], key: LIVE_KEY });
        } finally {
          await store.close();
        }
      },
    },
  );
  narrowKey = (await callApi<{ key: string }>(server, LIVE_KEY, "POST", "/keys", { mode: "test" })).body.key;
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  page = await context.newPage();
  page.on("dialog", (dialog) => void dialog.accept());
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signIn(tab: Page, key: string) {
  await tab.goto(server.url);
  await tab.getByLabel("API key").fill(key);
  await tab.getByRole("button", { name: "Sign in" }).click();
  await tab.locator("header.top").getByText("Key Holder").waitFor(SEEN_WITHIN);
}

const rowOf = (tab: Page, id: string) => tab.locator(`tr[data-key-id="${id}"]`);

/** What the page holds where a key must never be kept: storage, the address and every field. */
async function keptByPage(tab: Page): Promise<string> {
  return JSON.stringify(
    await tab.evaluate(() => ({
      session: Object.entries(sessionStorage),
      local: Object.entries(localStorage),
      url: location.href,
      inputs: [...document.querySelectorAll("input")].map((input) => input.value),
      html: document.documentElement.outerHTML,
    })),
  );
}

describe("Settings → API keys in Chromium", () => {
  test("the page's hint of a key is the service's", () => {
    expect(hintOf(LIVE_KEY)).toBe(keyHint(LIVE_KEY));
  });

  test("lists the keys by hint with when they were made and last used; the page's own key is marked", async () => {
    await signIn(page, LIVE_KEY);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    const keys = (await callApi<{ data: { id: string; hint: string }[] }>(server, LIVE_KEY, "GET", "/keys"))
      .body.data;
    const own = rowOf(page, keys.find((k) => k.hint === keyHint(LIVE_KEY))!.id);
    await own.waitFor(SEEN_WITHIN);
    const text = await own.textContent();
    expect(text).toContain(keyHint(LIVE_KEY));
    expect(text).toContain("this page's key");
    expect(text).toContain("live");
    expect(text).not.toContain("never");
    expect(await page.locator("main").textContent()).not.toContain(LIVE_KEY);
  });

  test("a test key made on the page is shown once, copied by the button, works, and is gone once hidden", async () => {
    await page.getByLabel("Name (optional: where the key will be used)").fill("CI deploys");
    await page.getByLabel("Mode").selectOption("test");
    const sent = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/api/v1/keys"));
    await page.getByRole("button", { name: "Create key" }).click();
    // No Idempotency-Key: the service keeps no answer that holds a key.
    expect((await sent).headers()["idempotency-key"]).toBeUndefined();
    const shown = page.getByLabel("The new API key");
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^sp_test_[0-9A-Za-z]{40}$/);
    await page.getByRole("button", { name: "Copy", exact: true }).click();
    await page.getByText("Copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    const me = await callApi<{ name: string }>(server, key, "GET", "/me");
    expect(me.status).toBe(200);
    expect(me.body.name).toBe("Key Holder");
    const listed = page.locator("table.keys tbody tr").filter({ hasText: "CI deploys" });
    await listed.waitFor(SEEN_WITHIN);
    expect(await listed.textContent()).toContain(keyHint(key));

    await page.getByRole("button", { name: "Hide the key" }).click();
    await shown.waitFor({ state: "detached" });
    expect(await keptByPage(page)).not.toContain(key);
    expect(server.output()).not.toContain(key);
  });

  test("a live key makes live keys; revoking one from its row refuses it at once", async () => {
    await page.getByLabel("Name (optional: where the key will be used)").fill("production");
    await page.getByLabel("Mode").selectOption("live");
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByLabel("The new API key");
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^sp_live_/);
    await page.getByRole("button", { name: "Hide the key" }).click();
    expect((await callApi(server, key, "GET", "/me")).status).toBe(200);

    const row = page.locator("table.keys tbody tr").filter({ hasText: "production" });
    await row.waitFor(SEEN_WITHIN);
    await row.getByRole("button", { name: "Revoke production" }).click();
    await row.waitFor({ state: "detached", ...SEEN_WITHIN });
    const refused = await callApi<{ error: string }>(server, key, "GET", "/me");
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe("Invalid or revoked API key.");
  });

  test("signed in with a test key, the page lists and makes test keys only", async () => {
    const made = await callApi<{ key: string }>(server, LIVE_KEY, "POST", "/keys", {
      mode: "test",
      name: "reports",
    });
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await signIn(tab, made.body.key);
      await tab.goto(`${server.url}/#/settings`);
      const rows = tab.locator("table.keys tbody tr");
      // Its own, the one made for the narrow screen and "CI deploys"; not the live one.
      await expect.poll(() => rows.count(), SEEN_WITHIN).toBe(3);
      expect(await tab.locator("table.keys").textContent()).not.toContain(keyHint(LIVE_KEY));
      expect(await tab.locator("table.keys tbody").textContent()).not.toContain("live");
      expect(await tab.getByLabel("Mode").count()).toBe(0);
      expect(await tab.locator("main").textContent()).toContain("This test key manages test keys only");
      await tab.getByRole("button", { name: "Create key" }).click();
      expect(await tab.getByLabel("The new API key").inputValue()).toMatch(/^sp_test_/);
    } finally {
      await tab.close();
    }
  });

  test("revoking the key the page is signed in with signs out and says why", async () => {
    const keys = (await callApi<{ data: { id: string; hint: string }[] }>(server, LIVE_KEY, "GET", "/keys"))
      .body.data;
    const own = keys.find((k) => k.hint === keyHint(LIVE_KEY))!;
    await page.keyboard.press("Shift");
    await rowOf(page, own.id)
      .getByRole("button", { name: /^Revoke/ })
      .click();
    const notice = page.getByText("you revoked the key this page was signed in with");
    await notice.waitFor(SEEN_WITHIN);
    expect(await notice.textContent()).toContain(keyHint(LIVE_KEY));
    await page.getByLabel("API key").waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect((await callApi(server, LIVE_KEY, "GET", "/me")).status).toBe(401);
  });
});

describe("a 390 px wide screen", () => {
  test("every column of the posts and keys tables is on screen, and the page does not scroll sideways", async () => {
    const tab = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await callApi(server, narrowKey, "POST", "/posts", {
        caption: "A post to read on a phone, with every column in view",
        platforms: ["x"],
      });
      await signIn(tab, narrowKey);
      for (const [hash, table, cells] of [
        ["#/posts", "table.posts", 8],
        ["#/settings", "table.keys", 6],
      ] as const) {
        await tab.goto(`${server.url}/${hash}`);
        const row = tab.locator(`${table} tbody tr`).first();
        await row.waitFor(SEEN_WITHIN);
        const boxes = await row.locator(":scope > th, :scope > td").evaluateAll((elements) =>
          elements.map((element) => {
            const box = element.getBoundingClientRect();
            return { left: box.left, right: box.right, width: box.width };
          }),
        );
        expect(boxes, hash).toHaveLength(cells);
        for (const box of boxes) {
          expect(box.width, hash).toBeGreaterThan(0);
          expect(box.left, hash).toBeGreaterThanOrEqual(0);
          expect(box.right, hash).toBeLessThanOrEqual(390);
        }
        expect(await tab.evaluate(() => document.documentElement.scrollWidth), hash).toBeLessThanOrEqual(390);
      }
    } finally {
      await tab.close();
    }
  });
});
