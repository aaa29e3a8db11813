import { ACCOUNT_HEALTH, type AccountHealth, type NetworkId } from "@socialpub/core";
import { Command, Option } from "commander";
import { connectAccount, disconnectAccount } from "../admin/accounts.ts";
import { connectLiveAccount, startLiveOAuthConnect } from "../admin/live-accounts.ts";
import { findUser } from "../admin/users.ts";
import { CliError } from "../errors.ts";
import { readSecret } from "../input/read-secret.ts";
import { withStore } from "../open-store.ts";
import {
  allowPrivateUrlsOption,
  configOption,
  dbOption,
  nonEmpty,
  parseNetwork,
  parseNonNegativeInteger,
  secretKeyFileOption,
  userOption,
} from "../options.ts";

interface ConnectOptions {
  db: string;
  user: string;
  platform: NetworkId;
  live?: boolean;
  handle?: string;
  followers?: number;
  health?: AccountHealth;
  service?: string;
  chat?: string;
  board?: string;
  subreddit?: string;
  page?: string;
  secretFile?: string;
  secretKeyFile?: string;
  allowPrivateUrls?: boolean;
  config?: string;
}

/** The one secret each live network takes, as the field of POST /accounts/connect it fills. */
const LIVE_SECRET: Partial<Record<NetworkId, { field: string; what: string }>> = {
  bluesky: { field: "app_password", what: "Bluesky app password" },
  telegram: { field: "bot_token", what: "Telegram bot token" },
  discord: { field: "webhook_url", what: "Discord webhook URL" },
};

const platformOption = () =>
  new Option("--platform <network>", "network id (x, linkedin, bluesky, …)")
    .argParser(parseNetwork)
    .makeOptionMandatory();

const liveOption = () =>
  new Option("--live", "a live account (what live keys publish to) instead of a sandbox one");

const CONNECT_HELP = `
Sandbox accounts (test keys): --handle, optionally --followers and --health.

Live accounts (--live): the network checks the credentials at once, and they are sealed with the
server's secret key (SOCIALPUB_SECRET_KEY or --secret-key-file, as for start). The secret is read from
standard input or --secret-file, never from an argument:
  bluesky   --handle <handle or e-mail> [--service <PDS URL>]; the app password
  telegram  --chat <@channel or id>; the bot token
  discord   the channel's webhook URL

The networks that connect through their own page (x and the other OAuth networks this server has
set up) take no secret (Pinterest takes --board, Reddit --subreddit, Facebook --page, all
optional): the command prints the address to open in a browser signed in to the account,
valid 15 minutes. The network then sends that browser to the server at SOCIALPUB_PUBLIC_URL, which
finishes the connect: run the command with the same database, secret key, SOCIALPUB_PUBLIC_URL and
network settings as that server.
Examples:
  socialpub-server accounts connect --live --user ana@example.com --platform bluesky --handle ana.bsky.social < app-password.txt
  socialpub-server accounts connect --live --user ana@example.com --platform telegram --chat @release_notes --secret-file bot-token.txt
  socialpub-server accounts connect --live --user ana@example.com --platform x
  socialpub-server accounts connect --live --user ana@example.com --platform reddit --subreddit socialpub`;

export function accountsCommand(): Command {
  const accounts = new Command("accounts").description("connect and disconnect a user's accounts");
  accounts
    .command("connect")
    .description(
      "connect (or update) an account; the user's webhooks get account.connected (account.disconnected with --health reauth_required)",
    )
    .addOption(userOption())
    .addOption(platformOption())
    .addOption(liveOption())
    .addOption(
      new Option(
        "--handle <handle>",
        "the account's handle on the network (live Bluesky: the handle or e-mail it logs in with)",
      ).argParser(nonEmpty),
    )
    .addOption(
      new Option("--followers <n>", "sandbox: follower count the account reports (0 by default)").argParser(
        parseNonNegativeInteger,
      ),
    )
    .addOption(
      new Option("--health <health>", "sandbox: account health (healthy by default)").choices(ACCOUNT_HEALTH),
    )
    .addOption(
      new Option("--service <url>", "live Bluesky: the account's PDS (https://bsky.social by default)"),
    )
    .addOption(new Option("--chat <chat>", "live Telegram: the channel or group, @name or numeric id"))
    .addOption(
      new Option(
        "--board <board>",
        "live Pinterest: the board pins go to (name or id; the first board if left out)",
      ),
    )
    .addOption(
      new Option(
        "--subreddit <name>",
        "live Reddit: the subreddit posts go to (name or r/name; the account's own profile if left out)",
      ),
    )
    .addOption(
      new Option(
        "--page <page>",
        "live Facebook: the Page posts go to (name or id; the first Page given on Facebook's dialog if left out)",
      ),
    )
    .addOption(
      new Option(
        "--secret-file <path>",
        "live: a file holding the app password, bot token or webhook URL (else read from standard input)",
      ),
    )
    .addOption(secretKeyFileOption())
    .addOption(configOption())
    .addOption(allowPrivateUrlsOption())
    .addOption(dbOption())
    .addHelpText("after", CONNECT_HELP)
    .action((options: ConnectOptions) => (options.live ? connectLive(options) : connectSandbox(options)));
  accounts
    .command("disconnect")
    .description(
      "disconnect an account (a live one's sealed credentials are deleted with it); the user's webhooks get account.disconnected",
    )
    .addOption(userOption())
    .addOption(platformOption())
    .addOption(liveOption())
    .addOption(dbOption())
    .action((options: { db: string; user: string; platform: NetworkId; live?: boolean }) =>
      withStore(options.db, async (store) => {
        const user = await findUser(store, options.user);
        const mode = options.live ? "live" : "test";
        await disconnectAccount(store, user, options.platform, mode);
        process.stdout.write(
          `Disconnected ${mode === "live" ? "live " : ""}${options.platform} for ${user.email}.\n`,
        );
      }),
    );
  accounts
    .command("list")
    .description(
      "list a user's connected accounts, sandbox and live: network, handle, mode, followers, health",
    )
    .addOption(userOption())
    .addOption(dbOption())
    .action((options: { db: string; user: string }) =>
      withStore(options.db, async (store) => {
        const user = await findUser(store, options.user);
        for (const mode of ["test", "live"] as const) {
          for (const a of await store.listAccounts(user.id, mode)) {
            process.stdout.write(
              `${a.platform}  ${a.handle}  ${mode}  ${a.followers} followers  ${a.health}\n`,
            );
          }
        }
      }),
    );
  return accounts;
}

function connectSandbox(options: ConnectOptions): Promise<void> {
  const liveOnly = (["service", "chat", "board", "subreddit", "page", "secretFile"] as const).filter(
    (o) => options[o] !== undefined,
  );
  if (liveOnly.length > 0)
    throw new CliError(`--${flag(liveOnly[0]!)} applies to live accounts only (--live).`);
  if (options.handle === undefined) throw new CliError("a sandbox account needs --handle.");
  const handle = options.handle;
  return withStore(options.db, async (store) => {
    const user = await findUser(store, options.user);
    const { platform, followers = 0, health = "healthy" } = options;
    await connectAccount(store, user, { platform, handle, followers, health });
    process.stdout.write(`Connected ${platform} account ${handle} for ${user.email}.\n`);
  });
}

async function connectLive(options: ConnectOptions): Promise<void> {
  const sandboxOnly = (["followers", "health"] as const).filter((o) => options[o] !== undefined);
  const pageOnly = (Object.keys(CHOSEN_AT_CONNECT) as (keyof typeof CHOSEN_AT_CONNECT)[]).filter(
    (o) => options[o] !== undefined,
  );
  if (sandboxOnly.length > 0) {
    throw new CliError(
      `--${sandboxOnly[0]} applies to sandbox accounts only; a live account reports its own.`,
    );
  }
  const secret = LIVE_SECRET[options.platform];
  if (!secret) return connectThroughNetworkPage(options);
  if (pageOnly.length > 0)
    throw new CliError(`--${pageOnly[0]} applies to ${CHOSEN_AT_CONNECT[pageOnly[0]!]} only.`);
  // Checked before the secret is asked for, so a wrong --user or --db costs no typing.
  await withStore(options.db, (store) => findUser(store, options.user));
  const value = await readSecret(secret.what, options.secretFile);
  const body: Record<string, unknown> = {
    platform: options.platform,
    [secret.field]: value,
    ...(options.handle !== undefined && { handle: options.handle }),
    ...(options.service !== undefined && { service: options.service }),
    ...(options.chat !== undefined && { chat: options.chat }),
  };
  await withStore(options.db, async (store) => {
    const user = await findUser(store, options.user);
    const { created, account } = await connectLiveAccount(store, user, body, {
      db: options.db,
      secretKeyFile: options.secretKeyFile,
      allowPrivateUrls: Boolean(options.allowPrivateUrls),
      config: options.config,
    });
    process.stdout.write(
      `${created ? "Connected" : "Reconnected"} live ${account.platform} account ${account.handle} for ${user.email} (${account.followers} followers, ${account.health}); its credentials are sealed with the secret key.\n`,
    );
  });
}

/**
 * A network that connects through its own page: no secret is asked for; the connect is started (kept
 * in the database) and the address to open is printed, on a line of its own so it can be copied.
 */
async function connectThroughNetworkPage(options: ConnectOptions): Promise<void> {
  const credentialOnly = (["handle", "service", "chat", "secretFile"] as const).filter(
    (o) => options[o] !== undefined,
  );
  if (credentialOnly.length > 0) {
    throw new CliError(
      `--${flag(credentialOnly[0]!)} does not apply to ${options.platform}: it connects through its own page, where the account is chosen.`,
    );
  }
  // What the account publishes to, chosen at connect: each network's own choice.
  for (const [option, network] of Object.entries(CHOSEN_AT_CONNECT) as [
    keyof typeof CHOSEN_AT_CONNECT,
    NetworkId,
  ][]) {
    if (options[option] !== undefined && options.platform !== network) {
      throw new CliError(`--${option} applies to ${network} only.`);
    }
  }
  await withStore(options.db, async (store) => {
    const user = await findUser(store, options.user);
    const started = await startLiveOAuthConnect(
      store,
      user,
      {
        platform: options.platform,
        ...(options.board !== undefined && { board: options.board }),
        ...(options.subreddit !== undefined && { subreddit: options.subreddit }),
        ...(options.page !== undefined && { page: options.page }),
      },
      {
        db: options.db,
        secretKeyFile: options.secretKeyFile,
        allowPrivateUrls: Boolean(options.allowPrivateUrls),
        config: options.config,
      },
    );
    process.stdout.write(
      [
        `To connect a live ${started.platform} account for ${user.email}, open this address in a browser signed in to that account and grant access (before ${started.expires_at}):`,
        "",
        started.authorize_url,
        "",
        "The network then sends the browser back to this server's callback, which finishes the connect; `accounts list` shows the account once it has.",
        "",
      ].join("\n"),
    );
  });
}

/** Where the account publishes, chosen at connect by the networks that connect through their own page. */
const CHOSEN_AT_CONNECT = { board: "pinterest", subreddit: "reddit", page: "facebook" } as const;

/** `secretFile` → `secret-file`. */
const flag = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
