import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { publishKey } from "@socialpub/core";
import {
  type BlueskyPeer,
  NO_PDS,
  needsPds,
  type PeerAccount,
  startBlueskyPeer,
} from "@socialpub/networks/bluesky/peer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withProcessSlot } from "../../../test-support/process-slots.ts";
import { RELEASE_PUBLISHED_AT, releaseEvent } from "./support/payloads.ts";
import { runStep, type StepRun } from "./support/runner.ts";

/*
 * Direct mode: the committed dist/index.js with no service, posting to a real local Bluesky PDS with an
 * app password. The record key comes from the repository and the release, so a re-run finds the first
 * run's record (and the PDS would refuse a second create of it anyway).
 */

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

let peer: BlueskyPeer;
let alice: PeerAccount;

beforeAll(async () => {
  peer = await withProcessSlot(() => startBlueskyPeer());
  alice = await peer.createAccount("alice");
}, 150_000);

afterAll(async () => {
  await peer?.stop();
});

// The PDS listens on loopback: the environment (never an input) lifts the public-address rule.
const LOCAL = { SOCIALPUB_ALLOW_PRIVATE_URLS: "1" };

function blueskyInputs(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "bluesky-handle": alice.handle,
    "bluesky-app-password": alice.appPassword,
    "bluesky-service": peer.url,
    ...extra,
  };
}

async function records(): Promise<{ rkey: string; text: string }[]> {
  const owner = await peer.ownerAgent(alice);
  const { data } = await owner.com.atproto.repo.listRecords({
    repo: alice.did,
    collection: "app.bsky.feed.post",
    limit: 100,
  });
  return data.records.map((r) => ({
    rkey: r.uri.split("/").pop()!,
    text: (r.value as { text: string }).text,
  }));
}

function expectSecretHidden(run: StepRun, secret: string): void {
  // The only place the secret may appear is the mask command the runner consumes.
  const visible = run.stdout.replace(`::add-mask::${secret}`, "");
  expect(visible + run.stderr + run.summary + JSON.stringify(run.outputs)).not.toContain(secret);
}

describe.skipIf(NO_PDS)(needsPds("direct mode on Bluesky (node dist/index.js, a real PDS)"), () => {
  it("posts once, and a re-run finds that post instead of posting again", async () => {
    const payload = releaseEvent("published", { id: 7100, tag: "v7.1.0", name: "App 7.1" });
    const first = await runStep({ inputs: blueskyInputs(), eventName: "release", payload, env: LOCAL });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ status: "published", platforms: "bluesky", "post-id": "" });
    const permalinks = JSON.parse(first.outputs.permalinks!) as Record<string, string>;
    const permalink = new RegExp(`^https://bsky\\.app/profile/${alice.handle}/post/([a-z2-7]{13})$`);
    const rkey = permalink.exec(permalinks.bluesky ?? "")?.[1];
    // The record key is the repository's and release's, at the release's time: the same in every run.
    expect(rkey, first.outputs.permalinks).toBe(
      publishKey("github-release/octo/app/7100", Date.parse(RELEASE_PUBLISHED_AT), "bluesky"),
    );
    expect(first.summary).toContain(`| Bluesky | published |`);
    expect(first.summary).toContain(permalinks.bluesky);
    expectSecretHidden(first, alice.appPassword);

    const after = (await records()).filter((r) => r.text.includes("App 7.1"));
    expect(after).toEqual([
      { rkey, text: expect.stringContaining("https://github.com/octo/app/releases/tag/v7.1.0") },
    ]);

    const again = await runStep({ inputs: blueskyInputs(), eventName: "release", payload, env: LOCAL });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.outputs).toMatchObject({ status: "published", platforms: "bluesky" });
    expect(JSON.parse(again.outputs.permalinks!)).toEqual(permalinks);
    expect(again.summary).toContain(`| Bluesky | already posted |`);
    expect(again.stdout).toContain("already posted by an earlier run");
    expect((await records()).filter((r) => r.text.includes("App 7.1"))).toHaveLength(1);
    expectSecretHidden(again, alice.appPassword);
  });

  it("media with alt text reaches Bluesky as an image embed, read back from the PDS", async () => {
    const images = createServer((_request, response) => {
      response.setHeader("content-type", "image/png");
      response.end(PNG);
    });
    await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    try {
      const run = await runStep({
        inputs: blueskyInputs({
          media: `${base}/dashboard.png | The new dashboard, with the composer open\n${base}/settings.png | Settings`,
        }),
        eventName: "release",
        payload: releaseEvent("published", { id: 7600, tag: "v7.6.0", name: "App 7.6" }),
        env: LOCAL,
      });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const rkey = /\/post\/([a-z2-7]{13})$/.exec(JSON.parse(run.outputs.permalinks!).bluesky ?? "")?.[1];
      const owner = await peer.ownerAgent(alice);
      const { data } = await owner.com.atproto.repo.getRecord({
        repo: alice.did,
        collection: "app.bsky.feed.post",
        rkey: rkey ?? "",
      });
      const embed = (data.value as { embed?: { $type: string; images?: { alt: string }[] } }).embed;
      expect(embed?.$type).toBe("app.bsky.embed.images");
      expect(embed?.images?.map((image) => image.alt)).toEqual([
        "The new dashboard, with the composer open",
        "Settings",
      ]);
    } finally {
      await new Promise((resolve) => images.close(resolve));
    }
  });

  it("a dry run connects but posts nothing", async () => {
    const before = (await records()).length;
    const run = await runStep({
      inputs: blueskyInputs({ "dry-run": "true" }),
      eventName: "release",
      payload: releaseEvent("published", { id: 7200, tag: "v7.2.0" }),
      env: LOCAL,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ status: "dry-run", platforms: "bluesky", permalinks: "{}" });
    expect(run.summary).toContain("would post");
    expect(await records()).toHaveLength(before);
  });

  it("a wrong app password fails the step with Bluesky's reason, and the password is shown nowhere", async () => {
    const wrong = "wrong-pass-word-1234";
    const run = await runStep({
      inputs: blueskyInputs({ "bluesky-app-password": wrong }),
      eventName: "release",
      payload: releaseEvent("published", { id: 7300, tag: "v7.3.0" }),
      env: LOCAL,
    });
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ status: "failed", permalinks: "{}" });
    expect(run.stdout).toMatch(
      /::error::Bluesky refused `bluesky-handle` and `bluesky-app-password`: .*Invalid identifier or password/,
    );
    expect(run.summary).toContain("Bluesky refused");
    expectSecretHidden(run, wrong);
  });

  it("a service on a private address is refused unless SOCIALPUB_ALLOW_PRIVATE_URLS=1", async () => {
    const run = await runStep({
      inputs: blueskyInputs(),
      eventName: "release",
      payload: releaseEvent("published", { id: 7400, tag: "v7.4.0" }),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/::error::Bluesky refused .*service/);
    expectSecretHidden(run, alice.appPassword);
  });

  it("base-url together with direct credentials fails, naming what to drop", async () => {
    const run = await runStep({
      inputs: blueskyInputs({ "base-url": "https://api.example.com/api/v1", "api-key": "sp_test_x" }),
      eventName: "release",
      payload: releaseEvent("published", { id: 7500, tag: "v7.5.0" }),
      env: LOCAL,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Drop `bluesky-handle`, `bluesky-app-password`, `bluesky-service`");
    expect(run.stdout).toContain("or drop `base-url` and `api-key`");
    expectSecretHidden(run, alice.appPassword);
  });
});
