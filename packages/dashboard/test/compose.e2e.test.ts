import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CHROMIUM_ARGS, findChromium, INSTALL_HINT } from "../scripts/chromium.ts";
import { callApi, type ServerProcess, startSandboxServer } from "../scripts/server-process.ts";
import { inChromium, NO_CHROMIUM } from "./support/chromium.ts";

const KEY = "sp_test_DashboardComposeKey0123456789abcdefghij";
const SEEN_WITHIN = { timeout: 20_000 };

/** The smallest PNG: one transparent pixel. */
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

let server: ServerProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`No Chromium for the end-to-end test. ${INSTALL_HINT}`);
  server = await startSandboxServer(KEY);
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(server.url);
  await page.getByLabel("API key").fill(KEY);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator("header.top").getByText("Dev User").waitFor(SEEN_WITHIN);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const preview = (network: string) => page.locator(`.network-preview[data-network="${network}"]`);

describe.skipIf(NO_CHROMIUM)(inChromium("writing a rich post in the composer, in Chromium"), () => {
  test("a thread, media with alt text, a first comment and a poll: each network's preview follows the typing, a refusal names the network, the draft keeps it all and publishes", async () => {
    await page.getByRole("link", { name: "Write" }).click();
    await page.getByRole("heading", { name: "Write a post" }).waitFor(SEEN_WITHIN);
    await page.getByLabel("X", { exact: true }).check();
    await page.getByLabel("LinkedIn", { exact: true }).check();

    // A text longer than X's 280, split into a thread on X; LinkedIn takes it whole.
    const paragraph = "Release 3.0 brings the composer, threads and alt text to every network. ";
    const text = `${paragraph.repeat(3)}\n\n${paragraph.repeat(3)}`;
    await page.getByLabel("Text", { exact: true }).fill(text);
    await page.getByLabel(/Split a text too long/).check();
    await expect.poll(() => preview("x").locator(".part").count(), SEEN_WITHIN).toBeGreaterThan(1);
    await expect.poll(() => preview("linkedin").locator(".part").count(), SEEN_WITHIN).toBe(1);
    expect(await preview("x").locator(".part").first().textContent()).toMatch(/Part 1 of \d/);

    // Media: one by URL with alt text, one uploaded through POST /media.
    await page.getByRole("button", { name: "Add by URL" }).first().click();
    await page.getByLabel("Item 1: URL or med_ id").first().fill("https://example.com/composer.png");
    await page.getByLabel("Alt text of item 1").first().fill("The composer with a thread open");
    await page.locator('input[type="file"]').first().setInputFiles({
      name: "pixel.png",
      mimeType: "image/png",
      buffer: PIXEL,
    });
    await expect
      .poll(() => page.getByLabel("Item 2: URL or med_ id").first().inputValue(), SEEN_WITHIN)
      .toMatch(/^med_/);
    await page.getByLabel("Alt text of item 2").first().fill("One pixel");
    await expect
      .poll(() => preview("x").locator(".alt").first().textContent(), SEEN_WITHIN)
      .toBe("alt: The composer with a thread open");

    await page.getByLabel("First comment").fill("Release notes: https://example.com/releases/3.0");
    await expect
      .poll(() => preview("linkedin").locator(".first-comment").textContent(), SEEN_WITHIN)
      .toContain("Release notes:");

    // LinkedIn takes no poll: the preview says so, naming it, and nothing is created.
    await page.getByRole("button", { name: "Add a poll" }).click();
    await page.getByLabel("Choice 1").fill("Yes");
    await page.getByLabel("Choice 2").fill("No");
    await expect.poll(() => page.locator(".preview .error").textContent(), SEEN_WITHIN).toContain("LinkedIn");
    await page.getByRole("button", { name: "Remove the poll" }).click();
    await expect.poll(() => page.locator(".preview .error").count(), SEEN_WITHIN).toBe(0);

    // Saved as a draft: the post page opens, and the API reads back every field.
    await page.getByRole("button", { name: "Save as draft" }).click();
    await page.waitForURL(/#\/posts\/post_/, SEEN_WITHIN);
    const id = decodeURIComponent(new URL(page.url()).hash.replace("#/posts/", ""));
    const content = await callApi<{
      caption: string;
      media: { url: string; alt: string | null }[];
      first_comment: string | null;
      split: string;
      poll: unknown;
    }>(server, KEY, "GET", `/posts/${encodeURIComponent(id)}/content`);
    expect(content.status).toBe(200);
    expect(content.body).toMatchObject({
      caption: text,
      first_comment: "Release notes: https://example.com/releases/3.0",
      split: "thread",
      poll: null,
    });
    expect(content.body.media.map((m) => m.alt)).toEqual(["The composer with a thread open", "One pixel"]);

    // The draft edits in the same view, then publishes: X gets a thread, LinkedIn one post.
    await page.goto(`${server.url}/#/compose/${encodeURIComponent(id)}`);
    await expect
      .poll(() => page.getByLabel("First comment").inputValue(), SEEN_WITHIN)
      .toBe("Release notes: https://example.com/releases/3.0");
    expect(await page.getByLabel("Alt text of item 1").first().inputValue()).toBe(
      "The composer with a thread open",
    );
    await page.getByRole("button", { name: "Publish now" }).click();
    await page.waitForURL(new RegExp(`#/posts/${id}$`), SEEN_WITHIN);
    await expect
      .poll(async () => {
        const targets = await callApi<{ data: { platform: string; status: string; parts: unknown[] }[] }>(
          server,
          KEY,
          "GET",
          `/posts/${encodeURIComponent(id)}/targets`,
        );
        return targets.body.data.map(
          (t) => `${t.platform}:${t.status}:${t.parts.length > 1 ? "thread" : "one"}`,
        );
      }, SEEN_WITHIN)
      .toEqual(["x:published:thread", "linkedin:published:one"]);
  });
});
