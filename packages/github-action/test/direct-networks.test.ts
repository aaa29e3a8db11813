import {
  type BlueskyPeer,
  NO_PDS,
  needsPds,
  type PeerAccount,
  startBlueskyPeer,
} from "@socialpub/networks/bluesky/peer";
import { DiscordFake } from "@socialpub/networks/discord/fake";
import { TelegramFake } from "@socialpub/networks/telegram/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withProcessSlot } from "../../../test-support/process-slots.ts";
import { type FakeActionsCache, startFakeActionsCache } from "./support/fake-actions-cache.ts";
import { releaseEvent } from "./support/payloads.ts";
import { runStep, type StepRun } from "./support/runner.ts";

/*
 * Direct mode to all three networks at once: the committed dist/index.js against a real Bluesky PDS and
 * the Telegram and Discord fakes (checked against those APIs' descriptions), with a stand-in of the
 * Actions cache that remembers the Telegram and Discord posts between runs.
 */

let peer: BlueskyPeer;
let alice: PeerAccount;
let telegram: TelegramFake;
let discord: DiscordFake;
let cache: FakeActionsCache;
let chatId: number;
let botToken: string;
let webhook: { id: string; token: string; url: string };
let env: Record<string, string>;

beforeAll(async () => {
  peer = await withProcessSlot(() => startBlueskyPeer());
  alice = await peer.createAccount("alice");
  telegram = await TelegramFake.start();
  const bot = telegram.addBot({ username: "release_bot" });
  botToken = bot.token;
  chatId = telegram.addChat({ type: "channel", title: "Releases", username: "octo_releases" }).id;
  telegram.setMember(chatId, bot.id, "administrator", { canPost: true });
  discord = await DiscordFake.start();
  webhook = discord.addWebhook({ name: "Releases" });
  cache = await startFakeActionsCache();
  env = {
    // Every peer is on loopback: the environment (never an input) lifts the public-address rule, and
    // points the Telegram and Discord adapters at the fakes.
    SOCIALPUB_ALLOW_PRIVATE_URLS: "1",
    SOCIALPUB_TELEGRAM_API_URL: telegram.url,
    SOCIALPUB_DISCORD_API_URL: discord.url,
    ...cache.env,
    GITHUB_RUN_ID: "900",
  };
}, 180_000);

afterAll(async () => {
  telegram?.assertSpecCompliant();
  discord?.assertSpecCompliant();
  await cache?.close();
  await telegram?.close();
  await discord?.close();
  await peer?.stop();
});

function allInputs(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "bluesky-handle": alice.handle,
    "bluesky-app-password": alice.appPassword,
    "bluesky-service": peer.url,
    "telegram-bot-token": botToken,
    "telegram-chat": "@octo_releases",
    "discord-webhook-url": webhook.url,
    ...extra,
  };
}

/** What each network holds that mentions `tag`. */
async function postsOf(tag: string): Promise<{ bluesky: number; telegram: number; discord: number }> {
  const owner = await peer.ownerAgent(alice);
  const { data } = await owner.com.atproto.repo.listRecords({
    repo: alice.did,
    collection: "app.bsky.feed.post",
    limit: 100,
  });
  return {
    bluesky: data.records.filter((r) => (r.value as { text: string }).text.includes(tag)).length,
    telegram: telegram.messages(chatId).filter((m) => (m.text ?? "").includes(tag)).length,
    discord: discord.messages(webhook.id).filter((m) => m.content.includes(tag)).length,
  };
}

function expectNoSecret(run: StepRun): void {
  const secrets = [alice.appPassword, botToken, webhook.url, webhook.token];
  let visible = run.stdout;
  for (const secret of secrets) visible = visible.replace(`::add-mask::${secret}`, "");
  const everything = visible + run.stderr + run.summary + JSON.stringify(run.outputs);
  for (const secret of secrets) expect(everything).not.toContain(secret);
}

const step = (inputs: Record<string, string>, payload: unknown, attempt = "1") =>
  runStep({ inputs, eventName: "release", payload, env: { ...env, GITHUB_RUN_ATTEMPT: attempt } });

describe.skipIf(NO_PDS)(needsPds("direct mode to Bluesky, Telegram and Discord (node dist/index.js)"), () => {
  it("posts once to each network; a re-run replays and posts nothing again", async () => {
    const payload = releaseEvent("published", { id: 8100, tag: "v8.1.0", name: "App 8.1" });
    const first = await step(allInputs(), payload);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ status: "published", platforms: "bluesky,discord,telegram" });
    const permalinks = JSON.parse(first.outputs.permalinks!) as Record<string, string>;
    expect(Object.keys(permalinks).sort()).toEqual(["bluesky", "discord", "telegram"]);
    expect(permalinks.telegram).toMatch(/^https:\/\/t\.me\/octo_releases\/\d+$/);
    expect(permalinks.discord).toContain(`/channels/`);
    for (const name of ["Bluesky", "Telegram", "Discord"])
      expect(first.summary).toContain(`| ${name} | published |`);
    expect(await postsOf("v8.1.0")).toEqual({ bluesky: 1, telegram: 1, discord: 1 });
    expectNoSecret(first);

    const again = await step(allInputs(), payload, "2");
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(JSON.parse(again.outputs.permalinks!)).toEqual(permalinks);
    for (const name of ["Bluesky", "Telegram", "Discord"])
      expect(again.summary).toContain(`| ${name} | already posted |`);
    expect(await postsOf("v8.1.0")).toEqual({ bluesky: 1, telegram: 1, discord: 1 });
    expectNoSecret(again);
  });

  it("a re-run after one network failed posts only there", async () => {
    const payload = releaseEvent("published", { id: 8200, tag: "v8.2.0", name: "App 8.2" });
    telegram.floodWait(chatId, 600);
    const first = await step(allInputs(), payload);
    telegram.floodWait(chatId, 0);
    // One network down is a warning: the others are announced.
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ status: "published", platforms: "bluesky,discord" });
    expect(first.summary).toMatch(/\| Telegram \| failed \| [^|]+ \| [^|]*Too Many Requests/);
    expect(first.stdout).toMatch(/::warning::Failed on Telegram: .*A re-run posts there, and only there/);
    expect(await postsOf("v8.2.0")).toEqual({ bluesky: 1, telegram: 0, discord: 1 });

    const again = await step(allInputs(), payload, "2");
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.outputs).toMatchObject({ status: "published", platforms: "bluesky,discord,telegram" });
    expect(again.summary).toContain("| Telegram | published |");
    expect(again.summary).toContain("| Bluesky | already posted |");
    expect(again.summary).toContain("| Discord | already posted |");
    expect(await postsOf("v8.2.0")).toEqual({ bluesky: 1, telegram: 1, discord: 1 });
  });

  it("a dry run posts nothing anywhere", async () => {
    const run = await step(
      allInputs({ "dry-run": "true" }),
      releaseEvent("published", { id: 8300, tag: "v8.3.0" }),
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ status: "dry-run", permalinks: "{}" });
    expect(await postsOf("v8.3.0")).toEqual({ bluesky: 0, telegram: 0, discord: 0 });
    expectNoSecret(run);
  });

  it("platforms narrows the networks with credentials; one asked for without credentials is left out", async () => {
    const run = await step(
      allInputs({ platforms: "discord, x", "telegram-bot-token": "", "telegram-chat": "" }),
      releaseEvent("published", { id: 8400, tag: "v8.4.0" }),
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ platforms: "discord", skipped: "x" });
    expect(await postsOf("v8.4.0")).toEqual({ bluesky: 0, telegram: 0, discord: 1 });
  });

  it("first-comment and long-notes: thread reach Telegram as replies, each to the message before", async () => {
    const payload = releaseEvent("published", { id: 8600, tag: "v8.6.0", name: "App 8.6" });
    const inputs = allInputs({
      platforms: "telegram",
      "long-notes": "thread",
      "first-comment": "Full release notes: {url}",
    });
    const first = await step(inputs, payload);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const permalinks = JSON.parse(first.outputs.permalinks!) as Record<string, string>;
    const messageId = Number(/\/(\d+)$/.exec(permalinks.telegram ?? "")?.[1]);
    const messages = telegram.messages(chatId).filter((m) => m.messageId >= messageId);
    // The post, then the first comment replying to it (a short text: one part).
    expect(messages[0]!.text).toContain("App 8.6");
    expect(messages.at(-1)).toMatchObject({
      text: "Full release notes: https://github.com/octo/app/releases/tag/v8.6.0",
      replyTo: messageId,
    });
    // A thread's later parts each reply to the one before.
    const parts = messages.slice(0, -1);
    for (let i = 1; i < parts.length; i++) expect(parts[i]!.replyTo).toBe(parts[i - 1]!.messageId);

    const again = await step(inputs, payload, "2");
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.summary).toContain("| Telegram | already posted |");
    expect(telegram.messages(chatId).filter((m) => m.messageId >= messageId)).toHaveLength(messages.length);
    expectNoSecret(again);
  });

  it("a refused bot token fails the step with Telegram's reason and posts nowhere", async () => {
    const wrong = "123456:ThisTokenWasNeverIssuedByBotFather0";
    const run = await step(
      allInputs({ "telegram-bot-token": wrong }),
      releaseEvent("published", { id: 8500, tag: "v8.5.0" }),
    );
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ status: "failed" });
    expect(run.stdout).toMatch(
      /::error::Telegram refused `telegram-bot-token` and `telegram-chat`: .*Unauthorized/,
    );
    expect(await postsOf("v8.5.0")).toEqual({ bluesky: 0, telegram: 0, discord: 0 });
    expect(run.stdout.replace(`::add-mask::${wrong}`, "") + run.summary).not.toContain(wrong);
  });
});
