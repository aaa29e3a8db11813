import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { adaptText, measure } from "@socialpub/core";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CHROMIUM_ARGS, findChromium, INSTALL_HINT } from "../scripts/chromium.ts";
import { callApi, type ServerProcess, startSandboxServer } from "../scripts/server-process.ts";
import { inChromium, NO_CHROMIUM } from "./support/chromium.ts";
import { contrastRatio } from "./support/contrast.ts";
import { type LargeAccount, seedLargeAccount } from "./support/large-account.ts";

const KEY = "sp_test_DashboardEndToEndKey0123456789abcdef";
/** Live views refresh every 5 s while the page is in use; a change must show within a few refreshes. */
const SEEN_WITHIN = { timeout: 20_000 };
const VIEWPORT = { width: 1280, height: 900 };

interface Post {
  id: string;
  status: string;
}

let server: ServerProcess;
let browser: Browser;
let page: Page;

/** A webhook receiver: it answers 503 to the first request (so a retry is scheduled), 200 after. */
let receiver: Server;
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`No Chromium for the end-to-end test. ${INSTALL_HINT}`);
  receiver = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on("end", () => res.writeHead(received.length === 1 ? 503 : 200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  server = await startSandboxServer(KEY);
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  page = await browser.newPage({ viewport: VIEWPORT });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  receiver?.close();
});

async function signIn(key: string, tab: Page = page) {
  await tab.getByLabel("API key").fill(key);
  await tab.getByRole("button", { name: "Sign in" }).click();
}

describe.skipIf(NO_CHROMIUM)(inChromium("the sandbox dashboard in Chromium"), () => {
  test("the sign-in hint names the command a newcomer ran, and keys create for other keys", async () => {
    await page.goto(server.url);
    const hint = await page.locator("#key-help").textContent();
    expect(hint).toContain("npm start prints a test key");
    expect(hint).toContain("keys create");
    expect(hint).not.toContain("socialpub-server");
  });

  test("a wrong key is refused with the API's message and nothing is kept", async () => {
    await signIn("sp_test_ThisKeyDoesNotExist0123456789abcdefgh");
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("Invalid or revoked API key.");
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  test("signing in shows the key's user; the key is kept in the tab, never in the address", async () => {
    await signIn(KEY);
    await expect.poll(() => page.locator("header.top").textContent(), SEEN_WITHIN).toContain("Dev User");
    expect(page.url()).not.toContain(KEY);
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([KEY]);
  });

  test("a post created through the API appears in the list, with a card per network", async () => {
    const caption =
      `Release 2.0 is out. ${"Every network gets its own cut of this caption. ".repeat(8)}`.trim();
    const created = await callApi<Post>(server, KEY, "POST", "/posts", {
      caption,
      platforms: ["x", "bluesky", "linkedin"],
    });
    expect(created.status).toBe(201);
    // Someone using the page: refreshes come every 5 s (an idle page waits up to a minute).
    await page.keyboard.press("Shift");

    const row = page.locator(`tr[data-post-id="${created.body.id}"]`);
    await row.waitFor(SEEN_WITHIN);
    expect(await row.textContent()).toContain("X, Bluesky, LinkedIn");
    await row.getByRole("link").click();

    const cards = page.locator("article.target");
    await expect.poll(() => cards.count(), SEEN_WITHIN).toBe(3);
    const x = page.locator('article[data-platform="x"]');
    const onX = adaptText(caption, "x", false);
    expect(await x.locator(".as-shown").textContent()).toBe(onX);
    expect(onX).toMatch(/…$/);
    expect(await x.textContent()).toContain(`${measure(onX, "weighted")} / 280 characters`);
    expect(await x.textContent()).toContain(`Shortened: the caption is ${[...caption].length} characters`);
    expect(await x.getByRole("link").getAttribute("href")).toMatch(/^https:\/\/x\.com\/.+\/status\/\d{19}$/);
    const linkedin = page.locator('article[data-platform="linkedin"]');
    expect(await linkedin.locator(".as-shown").textContent()).toBe(caption);
    expect(await linkedin.textContent()).not.toContain("Shortened");
    expect(await page.locator('article[data-platform="bluesky"]').textContent()).toContain("/ 300 graphemes");
  });

  test("reported metrics show on the card and in analytics", async () => {
    const x = page.locator('article[data-platform="x"]');
    await x.getByText("Report metrics").click();
    await x.getByLabel("reach").fill("1200");
    await x.getByLabel("likes").fill("90");
    await x.getByRole("button", { name: "Report" }).click();
    await expect.poll(() => x.locator("dl.metrics").textContent(), SEEN_WITHIN).toContain("1,200");

    await page.getByRole("link", { name: "Analytics" }).click();
    const totals = page.locator("dl.totals");
    await expect.poll(() => totals.textContent(), SEEN_WITHIN).toContain("1,200");
    const chart = page.getByRole("img", { name: "Reach by network" });
    expect(await chart.count()).toBe(1);
    expect(await page.getByRole("table").textContent()).toContain("7.50%");
  });

  test("a network whose account needs reconnecting fails, and its card says why", async () => {
    await page.getByRole("link", { name: "Accounts" }).click();
    await page.getByLabel("Health of the LinkedIn account").selectOption("reauth_required");
    const accounts = await (async () => {
      for (let i = 0; i < 50; i++) {
        const { body } = await callApi<{ data: { platform: string; health: string }[] }>(
          server,
          KEY,
          "GET",
          "/accounts",
        );
        if (body.data.find((a) => a.platform === "linkedin")?.health === "reauth_required") return body.data;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return null;
    })();
    expect(accounts, "the health select sets the account's health").not.toBeNull();

    const created = await callApi<Post>(server, KEY, "POST", "/posts", {
      caption: "Maintenance window tonight.",
      platforms: ["linkedin", "x"],
    });
    expect(created.body.status).toBe("published");
    await page.goto(`${server.url}/#/posts/${created.body.id}`);
    const linkedin = page.locator('article[data-platform="linkedin"]');
    await expect
      .poll(() => linkedin.locator(".failure").textContent(), SEEN_WITHIN)
      .toContain("needs to be reconnected (health: reauth_required)");
    expect(await linkedin.locator(".badge").textContent()).toBe("failed");
    expect(await page.locator('article[data-platform="x"] .badge').textContent()).toBe("published");
  });

  test("input and select borders contrast 3:1 with what is inside and around them, light and dark (WCAG 1.4.11)", async () => {
    try {
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        for (const view of ["Accounts", "Webhooks"]) {
          await page.getByRole("link", { name: view, exact: true }).click();
          const section = page.locator(`section[aria-labelledby="${view.toLowerCase()}-title"]`);
          const fields = section.locator("input:not([type=checkbox]), select");
          await fields.first().waitFor(SEEN_WITHIN);
          // Measured again until it holds (or the wait runs out): a view that re-renders while it is
          // measured can answer one reading with no computed style at all.
          const shortfalls = async () => {
            const controls = await fields.evaluateAll((elements) => {
              /** The colour actually behind an element: the first ancestor's background that is not transparent. */
              const backdrop = (element: Element | null): string => {
                for (let at = element; at; at = at.parentElement) {
                  const color = getComputedStyle(at).backgroundColor;
                  if (!/^rgba\(.*,\s*0\)$/.test(color) && color !== "transparent") return color;
                }
                return "rgb(255, 255, 255)";
              };
              return elements.map((element) => ({
                id: element.id,
                border: getComputedStyle(element).borderTopColor,
                inside: backdrop(element),
                around: backdrop(element.parentElement),
              }));
            });
            if (controls.length === 0) return ["no input or select found"];
            return controls.flatMap((control) => {
              const where = `${colorScheme}, ${view}, #${control.id}`;
              const colours = [control.border, control.inside, control.around];
              if (colours.some((colour) => !/^rgba?\(/.test(colour))) return [`${where}: unreadable colours`];
              return (["inside", "around"] as const)
                .map((side) => ({ side, ratio: contrastRatio(control.border, control[side]) }))
                .filter(({ ratio }) => ratio < 3)
                .map(({ side, ratio }) => `${where}: ${side} ${ratio.toFixed(2)}:1`);
            });
          };
          await expect.poll(shortfalls, SEEN_WITHIN).toEqual([]);
        }
      }
    } finally {
      await page.emulateMedia({ colorScheme: null });
    }
  });

  test("each delivery attempt is listed with its answer and next retry, and an event can be resent", async () => {
    const port = (receiver.address() as AddressInfo).port;
    const created = await callApi<{ id: string }>(server, KEY, "POST", "/webhooks", {
      url: `http://127.0.0.1:${port}/hooks`,
      events: ["post.published"],
    });
    expect(created.status).toBe(201);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("link", { name: new RegExp(created.body.id) }).click();
    await page.getByRole("button", { name: "Send a test event" }).click();

    // The first attempt got 503: listed with its status and when it will be retried.
    const rows = page.locator("table.attempts tbody tr");
    const first = rows.filter({ hasText: "#1" });
    await first.first().waitFor(SEEN_WITHIN);
    expect(await first.first().locator(".outcome").textContent()).toBe("503");
    expect(await first.first().locator("td").nth(4).locator("time").count()).toBe(1);
    // To the second: the retry is due 5 s after the attempt, and the two times must differ.
    const sent = await first.first().locator("td").nth(1).textContent();
    const retry = await first.first().locator("td").nth(4).textContent();
    expect(sent).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(retry).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(retry).not.toBe(sent);
    const eventId = await first.first().getAttribute("data-event-id");
    expect(eventId).toMatch(/^evt_/);

    // The retry 5 s later got 200 and has no next retry.
    const second = rows.filter({ hasText: "#2" });
    await second.first().waitFor({ timeout: 30_000 });
    expect(await second.first().locator(".outcome").textContent()).toBe("200");
    expect(await second.first().locator("td").nth(4).textContent()).toBe("—");

    // Resend: the same event goes out again as a new delivery, and its attempt appears.
    await second
      .first()
      .getByRole("button", { name: /Resend/ })
      .click();
    await expect.poll(() => rows.count(), SEEN_WITHIN).toBe(3);
    expect(await rows.first().getAttribute("data-event-id")).toBe(eventId);
    expect(await rows.first().locator(".outcome").textContent()).toBe("200");
    expect(received.map((headers) => headers["webhook-id"])).toEqual([eventId, eventId, eventId]);
  });

  test("an endpoint a 410 disabled says so and can be enabled again", async () => {
    let gone = true;
    const answers: number[] = [];
    const goneReceiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        answers.push(gone ? 410 : 200);
        res.writeHead(gone ? 410 : 200).end();
      });
    });
    await new Promise<void>((resolve) => goneReceiver.listen(0, "127.0.0.1", resolve));
    try {
      const port = (goneReceiver.address() as AddressInfo).port;
      const created = await callApi<{ id: string }>(server, KEY, "POST", "/webhooks", {
        url: `http://127.0.0.1:${port}/gone`,
        events: ["post.published"],
      });
      expect(created.status).toBe(201);
      await page.getByRole("link", { name: "Webhooks" }).click();
      await page.getByRole("link", { name: new RegExp(created.body.id) }).click();
      await page.getByRole("button", { name: "Send a test event" }).click();
      const enable = page.getByRole("button", { name: "Enable endpoint" });
      await enable.waitFor(SEEN_WITHIN);
      expect(answers).toEqual([410]);

      gone = false;
      await enable.click();
      await expect.poll(() => enable.count(), SEEN_WITHIN).toBe(0);
      const endpoint = await callApi<{ status: string }>(server, KEY, "GET", `/webhooks/${created.body.id}`);
      expect(endpoint.body.status).toBe("enabled");
      await page.getByRole("button", { name: "Send a test event" }).click();
      await expect.poll(() => answers, SEEN_WITHIN).toEqual([410, 200]);
    } finally {
      goneReceiver.close();
    }
  });

  test("a write whose answer was lost is sent again with the same Idempotency-Key and creates once", async () => {
    // Port 9 (discard) has no listener here: the endpoint only has to exist, not to receive.
    const url = "http://127.0.0.1:9/lost-answer";
    const keys: string[] = [];
    let dropped = false;
    await page.route("**/api/v1/webhooks", async (route) => {
      const request = route.request();
      if (request.method() !== "POST") return route.continue();
      keys.push((await request.headerValue("idempotency-key")) ?? "");
      if (dropped) return route.continue();
      // The service creates the endpoint, but its answer never reaches the page.
      dropped = true;
      await route.fetch();
      await route.abort("connectionreset");
    });
    try {
      await page.getByRole("link", { name: "Webhooks" }).click();
      await page.getByLabel("Add an endpoint (URL)").fill(url);
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("cannot be reached");
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await expect.poll(() => page.locator(".notice").textContent(), SEEN_WITHIN).toContain("Signing secret");

      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
      const endpoints = await callApi<{ data: { url: string }[] }>(server, KEY, "GET", "/webhooks");
      expect(endpoints.body.data.filter((endpoint) => endpoint.url === url)).toHaveLength(1);

      // Done once, the same write on purpose is a new request with a new key.
      await page.getByLabel("Add an endpoint (URL)").fill(url);
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await expect.poll(() => keys.length, SEEN_WITHIN).toBe(3);
      expect(keys[2]).not.toBe(keys[0]);
    } finally {
      await page.unroute("**/api/v1/webhooks");
    }
  });

  test("a long list is read a page at a time, following the API's Link cursors", async () => {
    const existing = (await callApi<{ data: Post[] }>(server, KEY, "GET", "/posts?limit=100")).body.data
      .length;
    for (let i = 0; i < 55; i++) {
      const draft = await callApi(server, KEY, "POST", "/posts", {
        caption: `Draft ${i}`,
        platforms: ["x"],
        draft: true,
      });
      expect(draft.status).toBe(201);
    }
    await page.getByRole("link", { name: "Posts" }).click();
    const rows = page.locator("table.posts tbody tr");
    await expect.poll(() => page.locator("table.posts").textContent(), SEEN_WITHIN).toContain("Draft 54");
    expect(await rows.count()).toBe(50);
    const pager = page.getByRole("navigation", { name: "Pages of posts" });
    expect(await pager.getByRole("button", { name: "← Newer" }).isDisabled()).toBe(true);

    await pager.getByRole("button", { name: "Older →" }).click();
    await expect.poll(() => pager.textContent()).toContain("Page 2");
    await expect.poll(() => rows.count()).toBe(existing + 55 - 50);
    expect(await page.locator("table.posts").textContent()).toContain("Draft 0");
    expect(await pager.getByRole("button", { name: "Older →" }).isDisabled()).toBe(true);

    await pager.getByRole("button", { name: "← Newer" }).click();
    await expect.poll(() => rows.count()).toBe(50);
    expect(await page.locator("table.posts").textContent()).toContain("Draft 54");
  });

  test("signing out removes the key from the tab", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    const logs = server.logs();
    expect(logs.some((line) => line.includes('"path":"/api/v1/posts"'))).toBe(true);
    expect(logs.filter((line) => line.includes(KEY))).toEqual([]);
  });
});

describe.skipIf(NO_CHROMIUM)(inChromium("an account with 10 000 posts"), () => {
  const LARGE_KEY = "sp_test_DashboardLargeAccountKey0123456789abc";
  const POSTS = 10_000;
  let large: ServerProcess;
  let account: LargeAccount;
  let tab: Page;
  /** Every GET /posts the page sent. */
  const asked: URL[] = [];

  beforeAll(async () => {
    large = await startSandboxServer(LARGE_KEY, [], {
      seed: async (db) => {
        account = await seedLargeAccount(db, LARGE_KEY, POSTS);
      },
    });
    tab = await browser.newPage({ viewport: VIEWPORT });
    tab.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/v1/posts") asked.push(url);
    });
    await tab.goto(large.url);
    await signIn(LARGE_KEY, tab);
  });

  afterAll(async () => {
    await tab?.close();
    await large?.stop();
  });

  const rows = () => tab.locator("table.posts tbody tr");
  const shownIds = () => rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-post-id")));

  test("the posts view draws the newest 50, never the whole list, and pages onward and back", async () => {
    await expect.poll(() => rows().count(), SEEN_WITHIN).toBe(50);
    expect(await shownIds()).toEqual(account.postIds.slice(0, 50));
    // The page holds one page of rows (plus the header row), not 10 000.
    expect(await tab.evaluate(() => document.querySelectorAll("tr").length)).toBe(51);
    expect(await tab.evaluate(() => document.getElementsByTagName("*").length)).toBeLessThan(3000);

    const pager = tab.getByRole("navigation", { name: "Pages of posts" });
    for (const n of [2, 3, 4]) {
      await pager.getByRole("button", { name: "Older →" }).click();
      await expect.poll(() => pager.textContent(), SEEN_WITHIN).toContain(`Page ${n}`);
      await expect.poll(shownIds, SEEN_WITHIN).toEqual(account.postIds.slice((n - 1) * 50, n * 50));
      expect(await tab.evaluate(() => document.querySelectorAll("tr").length)).toBe(51);
    }
    await pager.getByRole("button", { name: "← Newer" }).click();
    await expect.poll(shownIds, SEEN_WITHIN).toEqual(account.postIds.slice(100, 150));

    // Each page was one request for 50 posts; four pages, four places in the list.
    expect(asked.length).toBeGreaterThanOrEqual(4);
    for (const url of asked) expect(url.searchParams.get("limit")).toBe("50");
    expect(new Set(asked.map((url) => url.searchParams.get("cursor"))).size).toBe(4);
  });

  test("analytics sums the 10 000 posts", async () => {
    await tab.getByRole("link", { name: "Analytics" }).click();
    const totals = tab.locator("dl.totals");
    await expect.poll(() => totals.textContent(), SEEN_WITHIN).toContain("10,000");
    expect(await totals.textContent()).toContain(account.totalReach.toLocaleString("en"));
  });
});

describe.skipIf(NO_CHROMIUM)(inChromium("live updates and the API allowance"), () => {
  let context: BrowserContext;
  let tab: Page;
  /** The API paths the page called, in the order their answers finished. */
  const calls: string[] = [];
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
  const callsSince = (from: number) => calls.slice(from).sort();
  const setVisibility = (state: "visible" | "hidden") =>
    tab.evaluate((value) => {
      Object.defineProperty(document, "visibilityState", { value, configurable: true });
      Object.defineProperty(document, "hidden", { value: value === "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    }, state);
  const usage = async () => {
    const text = (await tab.locator("header.top .account p").textContent()) ?? "";
    return Number(/([\d,]+) \/ [\d,]+ calls/.exec(text)?.[1]?.replaceAll(",", ""));
  };

  beforeAll(async () => {
    // The page's timers run on a clock the test moves, so minutes of polling take no time.
    context = await browser.newContext({ viewport: VIEWPORT });
    await context.clock.install();
    tab = await context.newPage();
    tab.on("requestfinished", (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith("/api/v1/")) calls.push(pathname.slice("/api/v1".length));
    });
    await tab.goto(server.url);
    await signIn(KEY, tab);
    await tab.locator("table.posts, p.empty").first().waitFor(SEEN_WITHIN);
    await tab.getByText(/ calls$/).waitFor(SEEN_WITHIN);
    await context.clock.pauseAt(Date.now() + 1000);
    await settle();
  });

  afterAll(async () => {
    await context?.close();
  });

  test("each refresh asks for the view and the month's call count, which the header shows", async () => {
    const from = calls.length;
    const before = await usage();
    await context.clock.runFor(5000);
    await expect.poll(() => callsSince(from), SEEN_WITHIN).toEqual(["/me", "/posts"]);
    await expect.poll(usage, SEEN_WITHIN).toBeGreaterThan(before);
    await settle();
  });

  test("nothing is asked while the tab is hidden; showing it asks at once", async () => {
    await setVisibility("hidden");
    const from = calls.length;
    await context.clock.runFor(10 * 60_000);
    await settle();
    expect(calls.length).toBe(from);
    await setVisibility("visible");
    await context.clock.runFor(1);
    await expect.poll(() => callsSince(from), SEEN_WITHIN).toEqual(["/me", "/posts"]);
    await settle();
  });

  test("while nothing changes the waits grow (5 s, 10 s, 20 s); a key press brings back 5 s", async () => {
    let from = calls.length;
    for (const wait of [5000, 10_000, 20_000]) {
      await context.clock.runFor(wait - 1000);
      await settle();
      expect(calls.length, `nothing before ${wait} ms`).toBe(from);
      await context.clock.runFor(1000);
      await expect.poll(() => callsSince(from), SEEN_WITHIN).toEqual(["/me", "/posts"]);
      await settle();
      from = calls.length;
    }
    // The next refresh is 40 s away; the person presses a key and it comes within 5 s.
    await tab.keyboard.press("Shift");
    await context.clock.runFor(5000);
    await expect.poll(() => callsSince(from), SEEN_WITHIN).toEqual(["/me", "/posts"]);
  });
});
