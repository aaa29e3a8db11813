// Saves screenshots of the dashboard's main views to docs/screenshots/ for the README: starts the
// reference server (--dev, a fresh database), fills it through the API as an integration would, and
// photographs each view in headless Chromium.
//
//   pnpm --filter @socialpub/dashboard screenshots
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { buildDashboard } from "./build.ts";
import { CHROMIUM_ARGS, findChromium, INSTALL_HINT } from "./chromium.ts";
import { callApi, startSandboxServer } from "./server-process.ts";

const KEY = "sp_test_ScreenshotsOfTheDashboard0123456789ab";
const OUT = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url));

interface Post {
  id: string;
}

async function seed(url: string, receiverUrl: string): Promise<{ postId: string; webhookId: string }> {
  const server = { url };
  const call = async <T>(method: string, path: string, body?: unknown) => {
    const { status, body: answer } = await callApi<T>(server, KEY, method, path, body);
    if (status >= 300) throw new Error(`${method} ${path} answered ${status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const webhook = await call<{ id: string }>("POST", "/webhooks", { url: receiverUrl });
  await call("POST", "/keys", { mode: "test", name: "n8n workflows" });
  await call("POST", "/keys", { mode: "test", name: "CI deploys" });
  await call("POST", "/posts", { caption: "Draft: spring campaign teaser", platforms: ["x"], draft: true });
  await call("POST", "/posts", {
    caption: "Webinar on Thursday: shipping posts from CI.",
    platforms: ["linkedin", "x", "threads"],
    schedule_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
  });
  await call("PATCH", "/sandbox/accounts/threads", { health: "reauth_required" });
  const caption =
    "socialpub 2.0 is out. One request publishes to twelve networks, each with its own text rules: " +
    "captions are cut at a word boundary to fit X's 280 characters or Bluesky's 300 graphemes, the rest go " +
    "out whole. Scheduled posts publish at their exact due time, webhooks are signed (Standard Webhooks) and " +
    "retried for a day, and this dashboard shows what every network got. Release notes: https://example.com/releases/2.0";
  const post = await call<Post>("POST", "/posts", {
    caption,
    platforms: ["x", "bluesky", "linkedin", "threads", "facebook", "telegram"],
  });
  const figures: [string, number, number, number, number][] = [
    ["x", 12400, 610, 84, 131],
    ["bluesky", 5300, 402, 57, 66],
    ["linkedin", 8800, 350, 41, 29],
    ["facebook", 3100, 95, 12, 8],
  ];
  for (const [platform, reach, likes, comments, shares] of figures) {
    await call("POST", "/sandbox/metrics", { post_id: post.id, platform, reach, likes, comments, shares });
  }
  return { postId: post.id, webhookId: webhook.id };
}

async function main(): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(INSTALL_HINT);
  await buildDashboard();
  mkdirSync(OUT, { recursive: true });

  // A receiver that is down for its first request (so one delivery shows a retry), then accepts.
  let requests = 0;
  const receiver = createServer((req, res) => {
    requests++;
    req.resume();
    req.on("end", () => res.writeHead(requests === 1 ? 503 : 204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const server = await startSandboxServer(KEY);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  try {
    const { postId, webhookId } = await seed(server.url, receiverUrl);
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, colorScheme: "light" });
    // Whole views: the page's full height, not only what fits the window.
    const shoot = async (name: string) => {
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: `${OUT}${name}.png`, fullPage: true });
      console.log(`docs/screenshots/${name}.png`);
    };

    await page.goto(server.url);
    await shoot("sign-in");
    await page.getByLabel("API key").fill(KEY);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator("table.posts").waitFor();
    await shoot("posts");

    await page.goto(`${server.url}/#/posts/${postId}`);
    await page.locator("article.target").first().waitFor();
    await shoot("post");

    // The receiver refused the first delivery: wait for its retry (5 s later), then resend that event
    // from the page, so the view shows a failed attempt, its retry and a resend.
    await page.goto(`${server.url}/#/webhooks/${webhookId}`);
    const attempts = page.locator("table.attempts tbody tr");
    const retry = attempts.filter({ hasText: "#2" }).first();
    await retry.waitFor({ timeout: 60_000 });
    const eventId = await retry.getAttribute("data-event-id");
    await page.waitForTimeout(2000); // so the resend's time differs from the retry's
    await retry.getByRole("button", { name: /Resend/ }).click();
    await attempts
      .and(page.locator(`[data-event-id="${eventId}"]`))
      .nth(2)
      .waitFor({ timeout: 60_000 });
    await shoot("webhooks");

    await page.goto(`${server.url}/#/accounts`);
    await page.locator('tr[data-platform="x"]').waitFor();
    await shoot("accounts");

    await page.goto(`${server.url}/#/analytics`);
    await page.locator("figure.chart").first().waitFor();
    await shoot("analytics");

    // Settings → API keys, with a key just made: the only time the page shows one.
    await page.goto(`${server.url}/#/settings`);
    await page.locator("table.keys tbody tr").nth(2).waitFor();
    await page.getByLabel("Name (optional: where the key will be used)").fill("Release Action");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByLabel("The new API key").waitFor();
    await shoot("api-keys");

    // A phone's width: the posts table shows each post as a card.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: "light" });
    await phone.goto(server.url);
    await phone.getByLabel("API key").fill(KEY);
    await phone.getByRole("button", { name: "Sign in" }).click();
    await phone.locator("table.posts").waitFor();
    await phone.waitForLoadState("networkidle");
    await phone.screenshot({ path: `${OUT}posts-phone.png`, fullPage: true });
    console.log("docs/screenshots/posts-phone.png");
  } finally {
    await browser.close();
    await server.stop();
    receiver.close();
  }
}

await main();
