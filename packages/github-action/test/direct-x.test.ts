import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { measure } from "@socialpub/core";
import { XFake, type XFakePost, type XFakeUser } from "@socialpub/networks/x/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeActionsCache, startFakeActionsCache } from "./support/fake-actions-cache.ts";
import { releaseEvent } from "./support/payloads.ts";
import { runStep, type StepRun } from "./support/runner.ts";

/*
 * Direct mode to X: the committed dist/index.js with the four OAuth 1.0a user-context credentials of an
 * app's "Keys and tokens" page, against the X fake, which checks every request's signature as X
 * documents it (and every request and answer against X's API description). X takes no key of ours, so
 * a re-run reads the account's posts since the release back and sends only what is missing.
 */

let fake: XFake;
let cache: FakeActionsCache;
let images: Server;
let imageUrl: string;

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

beforeAll(async () => {
  fake = await XFake.start();
  cache = await startFakeActionsCache();
  images = createServer((_request, response) => {
    response.setHeader("content-type", "image/png");
    response.end(PNG);
  });
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/dashboard.png`;
}, 60_000);

afterAll(async () => {
  await cache?.close();
  await new Promise((resolve) => images?.close(resolve));
  await fake?.close();
});

interface Account {
  user: XFakeUser;
  inputs: Record<string, string>;
  secrets: string[];
}

/** An account of its own per test, with its app's four credentials as the step's inputs. */
function account(username: string): Account {
  const user = fake.addUser({ username });
  const keys = fake.addKeys(user);
  return {
    user,
    inputs: {
      "x-api-key": keys.apiKey,
      "x-api-key-secret": keys.apiKeySecret,
      "x-access-token": keys.accessToken,
      "x-access-token-secret": keys.accessTokenSecret,
    },
    secrets: Object.values(keys),
  };
}

const postsOf = (user: XFakeUser): XFakePost[] => fake.posts.filter((post) => post.userId === user.id);

function step(
  inputs: Record<string, string>,
  payload: unknown,
  options: { attempt?: string; cache?: boolean } = {},
) {
  return runStep({
    inputs,
    eventName: "release",
    payload,
    env: {
      SOCIALPUB_X_API_URL: fake.url,
      GITHUB_RUN_ID: "4200",
      GITHUB_RUN_ATTEMPT: options.attempt ?? "1",
      ...(options.cache === false ? {} : cache.env),
    },
  });
}

function expectNoSecret(run: StepRun, secrets: readonly string[]): void {
  let visible = run.stdout;
  for (const secret of secrets) {
    // Each secret is masked before anything runs: the runner consumes the mask command.
    expect(visible).toContain(`::add-mask::${secret}`);
    visible = visible.replace(`::add-mask::${secret}`, "");
  }
  const everything = visible + run.stderr + run.summary + JSON.stringify(run.outputs);
  for (const secret of secrets) expect(everything).not.toContain(secret);
}

/** The thread as X holds it: each part replying to the one before, the first comment to the first part. */
function expectThread(posts: readonly XFakePost[], parts: number): void {
  const thread = posts.slice(0, parts);
  expect(thread[0]!.replyTo ?? null).toBeNull();
  for (let i = 1; i < parts; i++) expect(thread[i]!.replyTo, `part ${i + 1}`).toBe(thread[i - 1]!.id);
  for (const [i, part] of thread.entries()) {
    expect(measure(part.text, "weighted")).toBeLessThanOrEqual(280);
    expect(part.text.endsWith(` ${i + 1}/${parts}`), part.text).toBe(true);
  }
}

describe("direct mode on X (node dist/index.js, OAuth 1.0a against the X fake)", { timeout: 180_000 }, () => {
  it("posts long notes as a thread in order with the image's alt text and the first comment; a re-run posts nothing new", async () => {
    const { user, inputs, secrets } = account("octo_releases");
    const payload = releaseEvent("published", { id: 9100, tag: "v9.1.0", name: "App 9.1" });
    const all = {
      ...inputs,
      "long-notes": "thread",
      media: `${imageUrl} | The new dashboard, with the composer open`,
      "first-comment": "Full release notes: {url}",
    };
    const first = await step(all, payload);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ status: "published", platforms: "x" });

    const posts = postsOf(user);
    const parts = posts.length - 1;
    expect(parts).toBeGreaterThan(1);
    expectThread(posts, parts);
    expect(posts[0]!.text).toContain("App 9.1");
    // The image goes with the first part, its alt text set through X's media metadata.
    expect(posts[0]!.mediaIds).toHaveLength(1);
    expect(fake.alt.get(posts[0]!.mediaIds[0]!)).toBe("The new dashboard, with the composer open");
    // The first comment replies to the thread's first part.
    expect(posts[parts]).toMatchObject({
      text: "Full release notes: https://github.com/octo/app/releases/tag/v9.1.0",
      replyTo: posts[0]!.id,
    });
    expect(JSON.parse(first.outputs.permalinks!)).toEqual({
      x: `https://x.com/i/web/status/${posts[0]!.id}`,
    });
    expect(first.summary).toContain(`| X | published (${parts} of ${parts} parts) |`);
    expectNoSecret(first, secrets);

    // The Actions cache remembers the post: nothing is sent.
    const again = await step(all, payload, { attempt: "2" });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.summary).toContain("| X | already posted |");
    expect(JSON.parse(again.outputs.permalinks!)).toEqual(JSON.parse(first.outputs.permalinks!));
    expect(postsOf(user)).toHaveLength(parts + 1);

    // Without the cache (a runner that offers none), X itself is read back: nothing is sent either.
    const uncached = await step(all, payload, { attempt: "3", cache: false });
    expect(uncached.code, uncached.stdout + uncached.stderr).toBe(0);
    expect(uncached.summary).toContain("| X | already posted |");
    expect(JSON.parse(uncached.outputs.permalinks!)).toEqual(JSON.parse(first.outputs.permalinks!));
    expect(postsOf(user)).toHaveLength(parts + 1);
    expectNoSecret(uncached, secrets);
    expect(fake.specViolations).toEqual([]);
  });

  it("a re-run after X stopped part way through the thread sends only the missing parts", async () => {
    const { user, inputs, secrets } = account("octo_thread");
    const payload = releaseEvent("published", { id: 9200, tag: "v9.2.0", name: "App 9.2" });
    const all = { ...inputs, "long-notes": "thread", "first-comment": "Notes: {url}" };
    // X's limit on posts runs out after the second part.
    fake.postsPerWindow = 2;
    let first: StepRun;
    try {
      first = await step(all, payload);
    } finally {
      fake.postsPerWindow = 100;
    }
    // X was the only network: the step fails, with X's reason.
    expect(first.code, first.stdout + first.stderr).toBe(1);
    expect(first.summary).toMatch(/\| X \| failed \| [^|]* \| [^|]*X's limit/);
    const sent = postsOf(user);
    expect(sent).toHaveLength(2);

    const again = await step(all, payload, { attempt: "2" });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const posts = postsOf(user);
    const parts = posts.length - 1;
    expect(parts).toBeGreaterThan(2);
    // The first two parts are the first run's, not sent again; the third replies to the second.
    expect(posts.slice(0, 2).map((p) => p.id)).toEqual(sent.map((p) => p.id));
    expectThread(posts, parts);
    expect(posts[parts]).toMatchObject({ text: expect.stringMatching(/^Notes: /), replyTo: posts[0]!.id });
    expect(again.summary).toContain(`| X | published (${parts} of ${parts} parts) |`);
    expect(JSON.parse(again.outputs.permalinks!)).toEqual({
      x: `https://x.com/i/web/status/${posts[0]!.id}`,
    });

    // Now whole: a further re-run sends nothing.
    const third = await step(all, payload, { attempt: "3" });
    expect(third.code, third.stdout + third.stderr).toBe(0);
    expect(third.summary).toContain("| X | already posted |");
    expect(postsOf(user)).toHaveLength(parts + 1);
    expectNoSecret(third, secrets);
    expect(fake.specViolations).toEqual([]);
  });

  it("a wrong secret fails the step with X's reason before anything is posted, and no secret is shown", async () => {
    const { user, inputs, secrets } = account("octo_wrong");
    const wrong = `${inputs["x-access-token-secret"]}-wrong`;
    const run = await step(
      { ...inputs, "x-access-token-secret": wrong },
      releaseEvent("published", { id: 9300, tag: "v9.3.0" }),
    );
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ status: "failed", permalinks: "{}" });
    expect(run.stdout).toMatch(
      /::error::X refused `x-api-key`, `x-api-key-secret`, `x-access-token` and `x-access-token-secret`: X does not accept the API key and access token/,
    );
    expect(run.summary).toContain("X refused");
    expect(postsOf(user)).toEqual([]);
    expectNoSecret(run, [...secrets.filter((s) => s !== inputs["x-access-token-secret"]), wrong]);
  });
});
