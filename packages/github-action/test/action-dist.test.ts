import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measure, NETWORK_RULES, type Post, SocialPublishClient, textLimitFor } from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type FakeGitHub, startFakeGitHub } from "./support/fake-github.ts";
import { releaseEvent, releaseObject } from "./support/payloads.ts";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.ts";
import { DIST_ENTRY, runStep, type StepRun } from "./support/runner.ts";

/*
 * The committed dist/index.js, started exactly as a runner starts it (INPUT_*, GITHUB_EVENT_NAME,
 * GITHUB_EVENT_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), against the real reference server. The dev
 * user has x, linkedin, bluesky, facebook, threads, instagram, discord and telegram connected.
 */

let server: ReferenceServer;
let client: SocialPublishClient;
let github: FakeGitHub;

beforeAll(async () => {
  server = await startReferenceServer();
  client = new SocialPublishClient({ apiKey: server.apiKey, baseUrl: server.baseUrl });
  github = await startFakeGitHub({
    "octo/app@v3.0.0": releaseObject({ id: 3000, tag: "v3.0.0", name: "App 3" }),
    "octo/app@v3.1.0": releaseObject({ id: 3100, tag: "v3.1.0" }),
  });
}, 30_000);

afterAll(async () => {
  await client?.close();
  await server?.stop();
  await github?.close();
});

const inputs = (extra: Record<string, string> = {}) => ({
  "api-key": server.apiKey,
  "base-url": server.baseUrl,
  platforms: "x, linkedin, bluesky, instagram, reddit",
  ...extra,
});

async function allPosts(): Promise<Post[]> {
  const posts: Post[] = [];
  for await (const post of client.posts.listAll()) posts.push(post);
  return posts;
}

/** The key may appear only in the mask command the runner consumes; nowhere else. */
function expectKeyHidden(run: StepRun, key: string) {
  const visible = run.stdout
    .split("\n")
    .filter((line) => line !== `::add-mask::${key}`)
    .join("\n");
  expect(visible).not.toContain(key);
  expect(run.stderr).not.toContain(key);
  expect(run.summary).not.toContain(key);
  expect(JSON.stringify(run.outputs)).not.toContain(key);
}

describe("the committed bundle", () => {
  it("is an entry, its chunks and source maps, and a licenses.txt naming every bundled package", () => {
    const dist = dirname(DIST_ENTRY);
    expect(readdirSync(dist).sort()).toEqual([
      "chunks",
      "index.js",
      "index.js.map",
      "licenses.txt",
      "package.json",
    ]);
    const chunks = readdirSync(join(dist, "chunks")).sort();
    // Every chunk with its map, except rolldown's few-line runtime helper, which has no source.
    for (const chunk of chunks.filter((name) => name.endsWith(".js") && name !== "rolldown-runtime.js")) {
      expect(chunks).toContain(`${chunk}.map`);
    }
    const licenses = readFileSync(join(dist, "licenses.txt"), "utf8");
    for (const name of [
      "@actions/core",
      "@actions/github",
      "@actions/cache",
      "@atproto/api",
      "undici",
      "unified",
    ]) {
      expect(licenses).toMatch(new RegExp(`^${name}$`, "m"));
    }
  });

  it("a stack trace from it names the source file and line, not the bundle's", async () => {
    // GITHUB_OUTPUT a folder: writing the outputs fails, and fails again when the failure is reported,
    // so the error leaves the Action and Node prints its stack.
    const run = await runStep({
      inputs: inputs(),
      eventName: "release",
      payload: releaseEvent("published", { id: 1900, tag: "v1.9.0", prerelease: true }),
      env: { GITHUB_OUTPUT: tmpdir() },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/EISDIR/);
    expect(run.stderr).toMatch(/at run \(\S*packages\/github-action\/src\/main\.ts:\d+:\d+\)/);
    expect(run.stderr).toMatch(/at issueFileCommand \(\S*@actions\/core\/lib\/file-command\.js:\d+:\d+\)/);
    expect(run.stderr).not.toMatch(/dist\/chunks\//);
  });
});

describe("node dist/index.js on a published release", () => {
  it("posts once, writes every output and a summary row per network, and never shows the key", async () => {
    const before = (await allPosts()).length;
    const run = await runStep({
      inputs: inputs(),
      eventName: "release",
      payload: releaseEvent("published", { id: 1001, tag: "v1.0.0", name: "v1.0.0" }),
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);

    const posts = await allPosts();
    expect(posts).toHaveLength(before + 1);
    const post = posts[0]!;
    expect(run.outputs).toEqual({
      "post-id": post.id,
      status: "published",
      platforms: "x,linkedin,bluesky",
      caption: post.caption,
      skipped: "instagram,reddit",
      permalinks: expect.any(String),
    });
    // The sandbox's permalinks, one per network, as the targets give them.
    const { data: sent } = await client.posts.targets(post.id);
    expect(JSON.parse(run.outputs.permalinks!)).toEqual(
      Object.fromEntries(sent.map((t) => [t.platform, t.permalink])),
    );
    expect(
      post.caption.startsWith(
        "octo/app v1.0.0\nhttps://github.com/octo/app/releases/tag/v1.0.0\n\nWhat's Changed",
      ),
    ).toBe(true);

    // Every network shows the title and the release URL, within its own limit as it counts (X weighs a
    // link 23, so its text may hold more code points than 280).
    const { data: targets } = await client.posts.targets(post.id);
    expect(targets.map((t) => t.platform)).toEqual(["x", "linkedin", "bluesky"]);
    for (const target of targets) {
      expect(target.status).toBe("published");
      expect(target.text).toContain("https://github.com/octo/app/releases/tag/v1.0.0");
      const { lengthUnit } = NETWORK_RULES[target.platform];
      expect(measure(target.text, lengthUnit)).toBeLessThanOrEqual(textLimitFor(target.platform, false));
    }

    for (const id of ["x", "linkedin", "bluesky", "instagram", "reddit"] as const) {
      expect(run.summary).toMatch(new RegExp(`^\\| ${NETWORK_RULES[id].name} \\|`, "m"));
    }
    expect(run.summary).toMatch(/^\| Instagram \| left out \| {2}\| needs media/m);
    expect(run.summary).toMatch(/^\| Reddit \| left out \| {2}\| not connected/m);
    expect(run.summary).toMatch(/^\| X \| published \| \d+ \/ 280 \| /m);
    expect(run.stdout).toMatch(/::warning::Instagram cannot post text alone/);
    expectKeyHidden(run, server.apiKey);
  });

  it("the same run repeated replays the first post instead of posting again", async () => {
    const step = {
      inputs: inputs({ platforms: "x, bluesky" }),
      eventName: "release",
      payload: releaseEvent("published", { id: 1002, tag: "v1.0.1" }),
    };
    const first = await runStep(step);
    expect(first.code, first.stdout).toBe(0);
    const count = (await allPosts()).length;

    const again = await runStep(step);
    expect(again.code, again.stdout).toBe(0);
    expect(again.outputs["post-id"]).toBe(first.outputs["post-id"]);
    expect(await allPosts()).toHaveLength(count);
    expect(again.summary).toContain("it was not posted again");
  });

  it("dry-run posts nothing and reports what it would post", async () => {
    const before = (await allPosts()).length;
    const run = await runStep({
      inputs: inputs({ "dry-run": "true" }),
      eventName: "release",
      payload: releaseEvent("published", { id: 1003, tag: "v1.0.2" }),
    });
    expect(run.code, run.stdout).toBe(0);
    expect(await allPosts()).toHaveLength(before);
    expect(run.outputs).toMatchObject({
      "post-id": "",
      status: "dry-run",
      platforms: "x,linkedin,bluesky",
      skipped: "instagram,reddit",
    });
    expect(run.outputs.caption).toMatch(
      /^octo\/app v1\.0\.2\nhttps:\/\/github\.com\/octo\/app\/releases\/tag\/v1\.0\.2\n/,
    );
    expect(run.summary).toContain("**Dry run**: nothing was posted.");
    expect(run.summary).toMatch(/^\| X \| would post \| \d+ \/ 280 \| {2}\|$/m);
  });
});

describe("node dist/index.js with media and a schedule", () => {
  it("with media, the networks that need it get the post too", async () => {
    const run = await runStep({
      inputs: inputs({ platforms: "x, instagram", media: "https://cdn.example.com/social-card.png" }),
      eventName: "release",
      payload: releaseEvent("published", { id: 1010, tag: "v1.1.0" }),
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs).toMatchObject({ status: "published", platforms: "x,instagram", skipped: "" });
    const post = await client.posts.get(run.outputs["post-id"]!);
    expect(post.has_media).toBe(true);
  });

  it("schedule-at queues the post; the summary says when", async () => {
    const at = new Date(Date.now() + 24 * 3600_000);
    at.setUTCMilliseconds(0);
    const run = await runStep({
      inputs: inputs({ platforms: "x", "schedule-at": at.toISOString() }),
      eventName: "release",
      payload: releaseEvent("published", { id: 1011, tag: "v1.2.0" }),
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs.status).toBe("scheduled");
    const post = await client.posts.get(run.outputs["post-id"]!);
    expect(post.scheduled_at).toBe(at.getTime());
    expect(run.summary).toContain(`for ${at.toISOString()}`);
    expect(run.summary).toMatch(/^\| X \| scheduled \| /m);
  });
});

describe("node dist/index.js on releases it must not announce", () => {
  it("a prerelease is skipped by default, with a notice", async () => {
    const before = (await allPosts()).length;
    const run = await runStep({
      inputs: inputs(),
      eventName: "release",
      payload: releaseEvent("published", { id: 1004, tag: "v2.0.0-rc.1", prerelease: true }),
    });
    expect(run.code).toBe(0);
    expect(run.outputs).toEqual({
      "post-id": "",
      status: "skipped",
      platforms: "",
      caption: "",
      skipped: "",
      permalinks: "{}",
    });
    expect(run.stdout).toMatch(/::notice::Release v2\.0\.0-rc\.1 is a prerelease/);
    expect(await allPosts()).toHaveLength(before);
  });

  it("a prerelease is announced when skip-prerelease is false", async () => {
    const run = await runStep({
      inputs: inputs({ "skip-prerelease": "false", platforms: "x" }),
      eventName: "release",
      payload: releaseEvent("published", { id: 1005, tag: "v2.0.0-rc.2", prerelease: true }),
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs.status).toBe("published");
  });

  it("a draft is never announced", async () => {
    const before = (await allPosts()).length;
    const run = await runStep({
      inputs: inputs({ "skip-prerelease": "false" }),
      eventName: "release",
      payload: releaseEvent("published", { id: 1006, tag: "v2.1.0", draft: true }),
    });
    expect(run.code).toBe(0);
    expect(run.outputs.status).toBe("skipped");
    expect(run.stdout).toMatch(/::notice::Release v2\.1\.0 is a draft/);
    expect(await allPosts()).toHaveLength(before);
  });

  it("other events post nothing and say why", async () => {
    const before = (await allPosts()).length;
    const run = await runStep({ inputs: inputs(), eventName: "pull_request", payload: {} });
    expect(run.code).toBe(0);
    expect(run.outputs.status).toBe("skipped");
    expect(run.stdout).toMatch(/::notice::The pull_request event has no release to announce/);
    expect(await allPosts()).toHaveLength(before);
  });
});

describe("node dist/index.js announcing an existing release by tag", () => {
  it("workflow_dispatch with `tag` looks the release up through GitHub's API and posts it", async () => {
    const run = await runStep({
      inputs: inputs({ tag: "v3.0.0", "github-token": "ghs_faketoken", platforms: "x" }),
      eventName: "workflow_dispatch",
      payload: { inputs: { tag: "v3.0.0" } },
      apiUrl: github.url,
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs.status).toBe("published");
    expect(run.outputs.caption).toMatch(
      /^octo\/app App 3\nhttps:\/\/github\.com\/octo\/app\/releases\/tag\/v3\.0\.0\n/,
    );
    expect(github.authorizations).toContain("token ghs_faketoken");
  });

  it("a tag push announces the pushed tag's release", async () => {
    const run = await runStep({
      inputs: inputs({ "github-token": "ghs_faketoken", platforms: "bluesky" }),
      eventName: "push",
      ref: "refs/tags/v3.1.0",
      apiUrl: github.url,
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs).toMatchObject({ status: "published", platforms: "bluesky" });
  });

  it("a tag with no published release fails with what to do", async () => {
    const run = await runStep({
      inputs: inputs({ tag: "v9.9.9", "github-token": "ghs_faketoken" }),
      eventName: "workflow_dispatch",
      apiUrl: github.url,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/::error::octo\/app has no published release for the tag v9\.9\.9/);
  });
});

describe("node dist/index.js failures explain the fix", () => {
  it("a wrong key: 401, check the api-key secret, and the key is not shown", async () => {
    const wrongKey = "sp_test_ThisKeyDoesNotExist0123456789abcdef";
    const run = await runStep({
      inputs: inputs({ "api-key": wrongKey }),
      eventName: "release",
      payload: releaseEvent("published", { id: 1007, tag: "v4.0.0" }),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /::error::The service refused the API key \(401: Invalid or revoked API key\.\)\. Check the `api-key` secret/,
    );
    expect(run.summary).toContain("Check the `api-key` secret");
    expectKeyHidden(run, wrongKey);
  });

  it("a failed run still sets every output: status failed, the others empty", async () => {
    const run = await runStep({
      inputs: inputs({ "api-key": "sp_test_ThisKeyDoesNotExist0123456789abcdef" }),
      eventName: "release",
      payload: releaseEvent("published", { id: 1013, tag: "v4.0.3" }),
    });
    expect(run.code).toBe(1);
    expect(run.outputs).toEqual({
      "post-id": "",
      status: "failed",
      platforms: "",
      caption: "",
      skipped: "",
      permalinks: "{}",
    });
  });

  it("a 400 carries the service's message", async () => {
    const run = await runStep({
      inputs: inputs({ "schedule-at": "2001-01-01T00:00:00Z", platforms: "x" }),
      eventName: "release",
      payload: releaseEvent("published", { id: 1008, tag: "v4.0.1" }),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/::error::The service refused the post \(400\): \S/);
  });

  it("a 400, then the input fixed: the re-run posts under the same idempotency-key, once", async () => {
    const payload = releaseEvent("published", { id: 1012, tag: "v4.1.0" });
    const step = (extra: Record<string, string>) =>
      runStep({ inputs: inputs({ platforms: "x", ...extra }), eventName: "release", payload });
    const before = (await allPosts()).length;

    const refused = await step({ "schedule-at": "2001-01-01T00:00:00Z" });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      /::error::The service refused the post \(400\): .* Nothing was posted\. The service keeps no refused answer: after fixing the cause, re-run the job; it posts under the same idempotency key \(github-release\/octo\/app\/1012\/x\)\./,
    );
    expect(await allPosts()).toHaveLength(before);

    // The input fixed, the key unchanged: the refusal was not kept, so the re-run posts.
    const future = new Date(Date.now() + 24 * 3600_000).toISOString();
    const fixed = await step({ "schedule-at": future });
    expect(fixed.code, fixed.stdout).toBe(0);
    expect(fixed.outputs.status).toBe("scheduled");
    expect(await allPosts()).toHaveLength(before + 1);

    // Re-run again: the post is replayed, not made twice.
    const again = await step({ "schedule-at": future });
    expect(again.code, again.stdout).toBe(0);
    expect(again.outputs["post-id"]).toBe(fixed.outputs["post-id"]);
    expect(await allPosts()).toHaveLength(before + 1);
  });

  it("an event file that is not JSON fails the step with a message, not a crash", async () => {
    const run = await runStep({
      inputs: inputs(),
      eventName: "release",
      rawPayload: '{"action": "published", "release": ',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /::error::The event payload at GITHUB_EVENT_PATH \(\S+event\.json\) is not valid JSON \(/,
    );
    expect(run.stderr).not.toMatch(/SyntaxError|\n\s+at /);
    expect(run.outputs.status).toBe("failed");
    expect(run.summary).toContain("is not valid JSON");
  });

  it("only media networks and no media: nothing to post, and how to fix it", async () => {
    const run = await runStep({
      inputs: inputs({ platforms: "instagram" }),
      eventName: "release",
      payload: releaseEvent("published", { id: 1009, tag: "v4.0.2" }),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /::error::No network is left to post to: Instagram cannot post text alone.*`media`/,
    );
  });
});

describe("node dist/index.js with `platforms` left empty (every connected network)", () => {
  // A server of its own: this test connects and disconnects the dev user's accounts.
  let own: ReferenceServer;
  let ownClient: SocialPublishClient;

  beforeAll(async () => {
    own = await startReferenceServer();
    ownClient = new SocialPublishClient({ apiKey: own.apiKey, baseUrl: own.baseUrl });
  }, 30_000);

  afterAll(async () => {
    await ownClient?.close();
    await own?.stop();
  });

  const postCount = async () => {
    let count = 0;
    for await (const _ of ownClient.posts.listAll()) count++;
    return count;
  };

  it("a re-run after accounts were connected or disconnected never posts a second time", async () => {
    const step = {
      inputs: { "api-key": own.apiKey, "base-url": own.baseUrl },
      eventName: "release",
      payload: releaseEvent("published", { id: 6001, tag: "v6.0.0" }),
    };
    const first = await runStep(step);
    expect(first.code, first.stdout).toBe(0);
    expect(first.outputs.platforms?.split(",")).toEqual(expect.arrayContaining(["x", "telegram"]));
    expect(first.summary).toContain("Idempotency key: `github-release/octo/app/6001/connected`");
    expect(await postCount()).toBe(1);

    await ownClient.accounts.connect({ platform: "reddit" });
    const afterConnect = await runStep(step);
    expect(afterConnect.code, afterConnect.stdout).toBe(1);
    expect(afterConnect.stdout).toMatch(/::error::.*\(422: /);
    expect(await postCount()).toBe(1);

    await ownClient.accounts.disconnect("reddit");
    await ownClient.accounts.disconnect("telegram");
    const afterDisconnect = await runStep(step);
    expect(afterDisconnect.code, afterDisconnect.stdout).toBe(1);
    expect(afterDisconnect.stdout).toMatch(/::error::.*\(422: /);
    expect(await postCount()).toBe(1);

    // Back to the accounts of the first run: the same request, so the first post is replayed.
    await ownClient.accounts.connect({ platform: "telegram" });
    const replay = await runStep(step);
    expect(replay.code, replay.stdout).toBe(0);
    expect(replay.outputs["post-id"]).toBe(first.outputs["post-id"]);
    expect(await postCount()).toBe(1);
  });
});

describe(".github/workflows/github-action.yml", () => {
  it("its step that starts dist/index.js on a synthetic release passes against the reference server", async () => {
    const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
    const workflow = parse(readFileSync(join(repoRoot, ".github/workflows/github-action.yml"), "utf8")) as {
      jobs: { announce: { steps: { name?: string; if?: string; run?: string }[] } };
    };
    const step = workflow.jobs.announce.steps.find((s) =>
      s.run?.includes("node packages/github-action/dist/index.js"),
    );
    expect(step?.run).toBeDefined();
    expect(step?.if, "it must run on every event").toBeUndefined();

    // As the runner runs a `run:` step: bash -eo pipefail, from the repository's root.
    const dir = mkdtempSync(join(tmpdir(), "workflow-step-"));
    const script = join(dir, "step.sh");
    writeFileSync(script, step!.run!);
    writeFileSync(join(dir, "summary.md"), "");
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        "bash",
        ["--noprofile", "--norc", "-eo", "pipefail", script],
        {
          cwd: repoRoot,
          timeout: 60_000,
          env: {
            PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
            RUNNER_TEMP: dir,
            GITHUB_STEP_SUMMARY: join(dir, "summary.md"),
            API_KEY: server.apiKey,
            BASE_URL: server.baseUrl,
          },
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
      );
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^posted post_\w+ once; the re-run replayed it$/m);
    const posted = (await allPosts()).filter((post) => post.caption.startsWith("octo/ci-check CI check"));
    expect(posted).toHaveLength(1);
  });
});
