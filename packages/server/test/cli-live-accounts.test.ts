import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { SocialPublishClient } from "@socialpub/core";
import { provisionUser } from "@socialpub/core/testing";
import { type BlueskyPeer, NO_PDS, needsPds, type PeerAccount } from "@socialpub/networks/bluesky/peer";
import type { DiscordFake } from "@socialpub/networks/discord/fake";
import type { TelegramFake } from "@socialpub/networks/telegram/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { runCli, startServerProcess } from "./support/cli-process.ts";
import { type LivePeers, startLivePeers } from "./support/live-peers.ts";
import { tempDir } from "./support/temp-dir.ts";

/*
 * `accounts connect --live` against the networks' peers (a real Bluesky PDS, the Telegram and Discord
 * fakes): secrets come in on standard input or --secret-file, the network checks them at once, they are
 * sealed with the server's key, and a server started with that key publishes with them. No secret may
 * show in the command's output or, in clear, in the database's files.
 */

const LIVE_KEY = `sp_live_${"CliLiveAccountsEndToEnd012345678".repeat(2)}`;
const SECRET_KEY = randomBytes(32).toString("base64");
const EMAIL = "ana@example.com";

let peers: LivePeers;
let peer: BlueskyPeer;
let telegram: TelegramFake;
let discord: DiscordFake;
let alice: PeerAccount;
let bot: { id: number; token: string };
let hook: ReturnType<DiscordFake["addWebhook"]>;
const dir = tempDir();
const db = dir.file("live.db");
const printed: string[] = [];
/** Each case runs several CLI processes; on a busy two-core machine one can take seconds to start. */
const SLOW = { timeout: 300_000 };

const env = () => ({
  SOCIALPUB_SECRET_KEY: SECRET_KEY,
  SOCIALPUB_TELEGRAM_API_URL: telegram.url,
  SOCIALPUB_DISCORD_API_URL: discord.url,
});

async function cli(args: string[], input = "", extraEnv: NodeJS.ProcessEnv = env()) {
  const result = await runCli([...args, "--db", db], extraEnv, input);
  printed.push(result.stdout, result.stderr);
  return result;
}

const connect = (platform: string, ...rest: string[]) => [
  "accounts",
  "connect",
  "--live",
  "--user",
  EMAIL,
  "--platform",
  platform,
  "--allow-private-urls",
  ...rest,
];

beforeAll(async () => {
  peers = await startLivePeers({ title: "Releases", username: "releases" });
  ({ peer, telegram, discord, alice, bot, hook } = peers);
  const store = openSqliteStore(db);
  await provisionUser(store, { email: EMAIL, accounts: [], key: LIVE_KEY, plan: "studio" });
  await store.close();
}, 150_000);

afterAll(async () => {
  await peers?.stop();
  dir.remove();
});

describe.skipIf(NO_PDS)(needsPds("accounts connect --live"), () => {
  it(
    "refuses without the server's secret key, and a wrong app password with the network's reason",
    SLOW,
    async () => {
      const noKey = await cli(
        connect("bluesky", "--handle", alice.handle, "--service", peer.url),
        alice.appPassword,
        {
          SOCIALPUB_SECRET_KEY: "",
        },
      );
      expect(noKey.code).toBe(1);
      expect(noKey.stderr).toMatch(/SOCIALPUB_SECRET_KEY/);

      const wrong = await cli(
        connect("bluesky", "--handle", alice.handle, "--service", peer.url),
        "wrong-wrong-wrong-wrong\n",
      );
      expect(wrong.code).toBe(1);
      // The handle is the user's own, said back; the password is not.
      expect(wrong.stderr).toBe(
        `error: Bluesky refused the login for ${alice.handle}: Invalid identifier or password\n`,
      );
      expect(wrong.stderr).not.toContain("wrong-wrong-wrong-wrong");

      const privatePds = await cli(
        connect("bluesky", "--handle", alice.handle, "--service", peer.url).filter(
          (arg) => arg !== "--allow-private-urls",
        ),
        `${alice.appPassword}\n`,
      );
      expect(privatePds.code).toBe(1);
      expect(privatePds.stderr).toBe(
        `error: service points at ${new URL(peer.url).hostname}, a loopback, private or link-local address; the Bluesky PDS address must be a public one. For local testing, start the server (or run accounts connect) with --allow-private-urls.\n`,
      );

      const nothing = await cli(connect("bluesky", "--handle", alice.handle, "--service", peer.url), "");
      expect(nothing.code).toBe(1);
      expect(nothing.stderr).toMatch(/standard input or .*--secret-file/);

      // There is no flag that takes the secret itself.
      const inArgv = await cli(
        connect("bluesky", "--handle", alice.handle, "--app-password", alice.appPassword),
      );
      expect(inArgv.code).not.toBe(0);
      expect(inArgv.stderr).toMatch(/unknown option/);
    },
  );

  it(
    "connects Bluesky from standard input, Telegram from --secret-file and Discord from standard input",
    SLOW,
    async () => {
      const bluesky = await cli(
        connect("bluesky", "--handle", alice.handle, "--service", peer.url),
        `${alice.appPassword}\n`,
      );
      expect(bluesky.stderr).toBe("");
      expect(bluesky.stdout).toContain(`Connected live bluesky account ${alice.handle} for ${EMAIL}`);

      const tokenFile = dir.file("bot-token.txt");
      writeFileSync(tokenFile, `${bot.token}\n`, { mode: 0o600 });
      const tg = await cli(connect("telegram", "--chat", "@releases", "--secret-file", tokenFile));
      expect(tg.stderr).toBe("");
      expect(tg.stdout).toContain("Connected live telegram account");

      const dc = await cli(connect("discord"), hook.url);
      expect(dc.stderr).toBe("");
      expect(dc.stdout).toContain("Connected live discord account");

      const again = await cli(connect("discord"), hook.url);
      expect(again.stdout).toContain("Reconnected live discord account");

      const list = await cli(["accounts", "list", "--user", EMAIL]);
      expect(list.stdout.trim().split("\n").sort()).toEqual([
        `bluesky  ${alice.handle}  live  0 followers  healthy`,
        "discord  Releases  live  0 followers  healthy",
        "telegram  @releases  live  40 followers  healthy",
      ]);
    },
  );

  it(
    "seals the credentials: none is in the database's files in clear, and the server opens them to publish (through the typed client)",
    SLOW,
    async () => {
      const store = openSqliteStore(db);
      try {
        const user = await store.findUserByEmail(EMAIL);
        expect(user).not.toBeNull();
        for (const account of await store.listAccounts(user!.id, "live")) {
          expect(account.credentials).toMatch(/^v1\./);
        }
      } finally {
        await store.close();
      }
      for (const file of [db, `${db}-wal`]) {
        if (!existsSync(file)) continue;
        const bytes = readFileSync(file).toString("latin1");
        for (const secret of [alice.appPassword, bot.token, hook.url, hook.token]) {
          expect(bytes).not.toContain(secret);
        }
      }

      const server = await startServerProcess(["--db", db, "--allow-private-urls"], env());
      // The typed client, unchanged, against a live key: the same calls a developer makes.
      const client = new SocialPublishClient({ apiKey: LIVE_KEY, baseUrl: `${server.url}/api/v1` });
      try {
        const created = await client.posts.create({
          caption: "Connected from the command line",
          platforms: ["bluesky", "telegram", "discord"],
        });
        // On a busy machine the publish-now wait may end first: wait for the networks' answers.
        let targets = (await client.posts.targets(created.id)).data;
        for (let end = Date.now() + 60_000; Date.now() < end; ) {
          if (targets.every((t) => t.status !== "pending")) break;
          await new Promise((r) => setTimeout(r, 250));
          targets = (await client.posts.targets(created.id)).data;
        }
        const bluesky = targets.find((t) => t.platform === "bluesky");
        expect(bluesky).toMatchObject({ status: "published" });
        expect(bluesky?.permalink).toMatch(
          new RegExp(`^https://bsky.app/profile/${alice.handle}/post/[a-z2-7]{13}$`),
        );
        expect(targets.every((t) => t.status === "published")).toBe(true);
        printed.push(server.output());
      } finally {
        await client.close();
        await server.stop();
      }
    },
  );

  it("disconnects a live account; a sandbox disconnect of it says to add --live", SLOW, async () => {
    const sandbox = await cli(["accounts", "disconnect", "--user", EMAIL, "--platform", "discord"]);
    expect(sandbox.code).toBe(1);
    expect(sandbox.stderr).toMatch(/has a live one \(add --live\)/);
    const live = await cli(["accounts", "disconnect", "--live", "--user", EMAIL, "--platform", "discord"]);
    expect(live.stdout).toContain("Disconnected live discord");
    const list = await cli(["accounts", "list", "--user", EMAIL]);
    expect(list.stdout).not.toContain("discord");
  });

  it(
    "keys create --live does not warn on SQLite: a server there seals with its key file when no key is configured",
    SLOW,
    async () => {
      const create = ["keys", "create", "--live", "--user", EMAIL];
      const keyFile = dir.file("secret.key");
      writeFileSync(keyFile, SECRET_KEY, { mode: 0o600 });
      for (const [args, extraEnv] of [
        [create, { SOCIALPUB_SECRET_KEY: "", SOCIALPUB_SECRET_KEY_FILE: "" }],
        [create, env()],
        [[...create, "--secret-key-file", keyFile], { SOCIALPUB_SECRET_KEY: "" }],
        [create, { SOCIALPUB_SECRET_KEY: "", SOCIALPUB_SECRET_KEY_FILE: keyFile }],
      ] as const) {
        const created = await cli([...args], "", extraEnv);
        expect(created.code).toBe(0);
        expect(created.stdout).toMatch(/^API key: sp_live_\S+$/m);
        expect(created.stderr).toBe("");
      }
    },
  );

  it("never printed a secret", () => {
    const all = printed.join("\n");
    for (const secret of [alice.appPassword, bot.token, hook.url, hook.token]) {
      expect(all).not.toContain(secret);
    }
  });
});
