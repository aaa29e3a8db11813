import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CHROMIUM_ARGS, findChromium, INSTALL_HINT } from "../scripts/chromium.ts";
import { callApi, type ServerProcess, startSandboxServer } from "../scripts/server-process.ts";
import { inChromium, NO_CHROMIUM } from "./support/chromium.ts";

const KEY = "sp_test_DashboardPostEditKey0123456789abcdefgh";
const SEEN_WITHIN = { timeout: 20_000 };
const HOUR = 3_600_000;

interface Post {
  id: string;
  status: string;
  caption: string;
  scheduled_at: number | null;
}

let server: ServerProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`No Chromium for the end-to-end test. ${INSTALL_HINT}`);
  server = await startSandboxServer(KEY);
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(server.url);
  await page.getByLabel("API key").fill(KEY);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator("header.top").getByText("Dev User").waitFor(SEEN_WITHIN);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function scheduledPost(caption: string, dueIn: number): Promise<Post> {
  const created = await callApi<Post>(server, KEY, "POST", "/posts", {
    caption,
    platforms: ["x", "linkedin"],
    schedule_at: Date.now() + dueIn,
  });
  expect(created.status).toBe(201);
  expect(created.body.status).toBe("scheduled");
  return created.body;
}

async function openPost(id: string) {
  await page.goto(`${server.url}/#/posts/${encodeURIComponent(id)}`);
  await page.locator('article[data-platform="x"]').waitFor(SEEN_WITHIN);
}

/** A minute-aligned time `ms` from now, as the form takes it (UTC) and as the page shows it. */
function dueIn(ms: number): { input: string; shown: string; at: number } {
  const at = Math.floor((Date.now() + ms) / 60_000) * 60_000;
  const iso = new Date(at).toISOString();
  return { input: iso.slice(0, 16), shown: `${iso.slice(0, 19).replace("T", " ")} UTC`, at };
}

describe.skipIf(NO_CHROMIUM)(inChromium("editing and rescheduling a post from its page, in Chromium"), () => {
  test("a scheduled post's text and time are edited; the cards show each network's text and the new time", async () => {
    const post = await scheduledPost("Launch day is Monday.", 2 * HOUR);
    await openPost(post.id);
    const due = dueIn(48 * HOUR);

    // The first save reaches the service, but its answer is lost: the second is the same request with
    // the same Idempotency-Key, and the service replays the edit instead of making it again.
    const sent: { key: string; body: unknown }[] = [];
    const path = `**/api/v1/posts/${post.id}`;
    await page.route(path, async (route) => {
      const request = route.request();
      if (request.method() !== "PATCH") return route.continue();
      sent.push({ key: (await request.headerValue("idempotency-key")) ?? "", body: request.postDataJSON() });
      if (sent.length > 1) return route.continue();
      await route.fetch();
      await route.abort("connectionreset");
    });
    try {
      await page.getByRole("button", { name: "Edit or reschedule" }).click();
      await page
        .getByLabel("Caption (for every network without its own text)")
        .fill("Launch day is Tuesday.");
      await page
        .getByLabel("Text on LinkedIn (empty: the caption)")
        .fill("Launch day moved to Tuesday: why.");
      await page.getByLabel("Due time (UTC)").fill(due.input);
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("cannot be reached");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.locator("form.edit-post").waitFor({ state: "detached", ...SEEN_WITHIN });
    } finally {
      await page.unroute(path);
    }
    expect(sent).toHaveLength(2);
    expect(sent[0]!.key).not.toBe("");
    expect(sent[1]!.key).toBe(sent[0]!.key);
    expect(sent[0]!.body).toEqual({
      caption: "Launch day is Tuesday.",
      captions: { linkedin: "Launch day moved to Tuesday: why." },
      schedule_at: `${due.input}:00Z`,
    });

    const x = page.locator('article[data-platform="x"]');
    const linkedin = page.locator('article[data-platform="linkedin"]');
    await expect.poll(() => x.locator(".as-shown").textContent(), SEEN_WITHIN).toBe("Launch day is Tuesday.");
    expect(await linkedin.locator(".as-shown").textContent()).toBe("Launch day moved to Tuesday: why.");
    expect(await linkedin.textContent()).toContain("its own text, not the caption");
    expect(await x.textContent()).not.toContain("its own text");
    expect(await page.locator("dl.facts").textContent()).toContain(due.shown);

    const stored = await callApi<Post>(server, KEY, "GET", `/posts/${post.id}`);
    expect(stored.body).toMatchObject({
      status: "scheduled",
      caption: "Launch day is Tuesday.",
      scheduled_at: due.at,
    });

    // Opened again, the form starts from the edit: LinkedIn's own text is there, X has none.
    await page.getByRole("button", { name: "Edit or reschedule" }).click();
    expect(await page.getByLabel("Text on LinkedIn (empty: the caption)").inputValue()).toBe(
      "Launch day moved to Tuesday: why.",
    );
    expect(await page.getByLabel("Text on X (empty: the caption)").inputValue()).toBe("");
    expect(await page.getByLabel("Due time (UTC)").inputValue()).toBe(due.input);
    await page.getByRole("button", { name: "Cancel" }).click();
  });

  test("an edit that arrives after the post published is refused in plain words, and the page shows it published", async () => {
    const post = await scheduledPost("Publishes before the edit.", 2 * HOUR);
    await openPost(post.id);
    await page.getByRole("button", { name: "Edit or reschedule" }).click();
    await page.getByLabel("Caption (for every network without its own text)").fill("Too late.");

    // Meanwhile the post comes due and the scheduler publishes it.
    const moved = await callApi(server, KEY, "PATCH", `/posts/${post.id}`, { schedule_at: Date.now() });
    expect(moved.status).toBe(200);
    await expect
      .poll(
        async () => (await callApi<Post>(server, KEY, "GET", `/posts/${post.id}`)).body.status,
        SEEN_WITHIN,
      )
      .toBe("published");

    await page.getByRole("button", { name: "Save changes" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent(), SEEN_WITHIN)
      .toContain("Your edit was not saved: the post was published");
    await expect.poll(() => page.locator("h1 .badge").textContent(), SEEN_WITHIN).toBe("published");
    expect(await page.locator("form.edit-post").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Edit or reschedule" }).count()).toBe(0);
    const stored = await callApi<Post>(server, KEY, "GET", `/posts/${post.id}`);
    expect(stored.body.caption).toBe("Publishes before the edit.");
  });
});
