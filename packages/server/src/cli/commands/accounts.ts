import { ACCOUNT_HEALTH, type AccountHealth, type NetworkId } from "@socialpub/core";
import { type ConnectField, DESCRIPTIONS, type NetworkDescription } from "@socialpub/networks/descriptions";
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
  secretFile?: string;
  secretKeyFile?: string;
  allowPrivateUrls?: boolean;
  config?: string;
  /** The connect fields the networks' descriptions name (--service, --chat, --board, …), by option name. */
  [field: string]: unknown;
}

/*
 * What each network takes at connect comes from its description (@socialpub/networks): a network that
 * connects with pasted credentials takes one secret, read from standard input or --secret-file, and
 * its other fields as options; a network that connects through its own page takes its choices
 * (where the account publishes) as options.
 */

const CREDENTIAL_NETWORKS = DESCRIPTIONS.filter((d) => d.connect.kind === "credentials");
const OAUTH_NETWORKS = DESCRIPTIONS.filter((d) => d.connect.kind === "oauth");

/** The one secret each live network takes, as the field of POST /accounts/connect it fills. */
const LIVE_SECRET = new Map(
  CREDENTIAL_NETWORKS.flatMap((d) =>
    d.connect.fields
      .filter((field) => field.secret)
      .map((field) => [d.id, { field: field.name, what: `${d.name} ${lowerFirst(field.label)}` }] as const),
  ),
);

/** The fields given as options: every connect field but the secrets and --handle (asked of all). */
const optionFields = (d: NetworkDescription): ConnectField[] =>
  d.connect.fields.filter((field) => !field.secret && field.name !== "handle");

/** Credential fields other than the secret (--service, --chat): they do not apply to OAuth networks. */
const CREDENTIAL_OPTIONS = [...new Set(CREDENTIAL_NETWORKS.flatMap(optionFields).map((f) => optionName(f)))];

/** Where the account publishes, chosen at connect by the networks that connect through their own page. */
const CHOSEN_AT_CONNECT: ReadonlyMap<string, NetworkId> = new Map(
  OAUTH_NETWORKS.flatMap((d) => optionFields(d).map((field) => [optionName(field), d.id] as const)),
);

/** The commander options of the connect fields, each saying which network takes it. */
function connectFieldOptions(): Option[] {
  return DESCRIPTIONS.flatMap((d) =>
    optionFields(d).map(
      (field) =>
        new Option(
          `--${field.name.replaceAll("_", "-")} <${field.name}>`,
          `live ${d.name}: ${lowerFirst(field.help ?? field.label)}`,
        ),
    ),
  );
}

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
${CREDENTIAL_NETWORKS.map((d) => `  ${d.id.padEnd(10)}${credentialUsage(d)}`).join("\n")}

The networks that connect through their own page (the OAuth networks this server has set up) take no
secret (${chosenUsage()}, all optional):
the command prints the address to open in a browser signed in to the account, valid 15 minutes. The network then sends that browser to the server at
SOCIALPUB_PUBLIC_URL, which finishes the connect: run the command with the same database, secret key,
SOCIALPUB_PUBLIC_URL and network settings as that server.
Examples:
${DESCRIPTIONS.filter(
  (d) => d.connect.kind === "credentials" || d === OAUTH_NETWORKS[0] || optionFields(d).length > 0,
)
  .map(
    (d) =>
      `  socialpub-server accounts connect --live --user ana@example.com --platform ${d.id}${example(d)}`,
  )
  .join("\n")}`;

/** "--handle <handle> [--service <service>]; the app password": what a credential network takes. */
function credentialUsage(d: NetworkDescription): string {
  const options = d.connect.fields
    .filter((field) => !field.secret)
    .map((field) => {
      const option = `--${field.name.replaceAll("_", "-")} <${field.placeholder ?? field.name}>`;
      return field.required ? option : `[${option}]`;
    });
  const secrets = d.connect.fields
    .filter((field) => field.secret)
    .map((field) => `the ${lowerFirst(field.label)}`);
  return [options.join(" "), secrets.join(", ")].filter(Boolean).join("; ");
}

/** An example's options: the fields a network takes, with their placeholders, its secret from a file. */
function example(d: NetworkDescription): string {
  const options = d.connect.fields
    .filter((field) => !field.secret && (field.required || d.connect.kind === "oauth"))
    .map(
      (field) => ` --${field.name.replaceAll("_", "-")} ${JSON.stringify(field.placeholder ?? field.label)}`,
    );
  const secret = d.connect.fields.find((field) => field.secret);
  const file = secret ? ` < ${secret.label.toLowerCase().replaceAll(" ", "-")}.txt` : "";
  return `${options.join("")}${file}`;
}

/** "Pinterest takes --board, Reddit --subreddit": the choices OAuth networks take at connect. */
function chosenUsage(): string {
  const takes = OAUTH_NETWORKS.flatMap((d) =>
    optionFields(d).map((field) => `${d.name} --${field.name.replaceAll("_", "-")}`),
  );
  return takes.length > 0 ? `${takes.join(", ")}` : "nothing else";
}

export function accountsCommand(): Command {
  const accounts = new Command("accounts").description("connect and disconnect a user's accounts");
  const connect = accounts
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
      new Option(
        "--secret-file <path>",
        `live: a file holding the ${[...LIVE_SECRET.values()].map((s) => s.what).join(", ")} (else read from standard input)`,
      ),
    )
    .addOption(secretKeyFileOption())
    .addOption(configOption())
    .addOption(allowPrivateUrlsOption())
    .addOption(dbOption())
    .addHelpText("after", CONNECT_HELP)
    .action((options: ConnectOptions) => (options.live ? connectLive(options) : connectSandbox(options)));
  for (const option of connectFieldOptions()) connect.addOption(option);
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
  const liveOnly = [...CREDENTIAL_OPTIONS, ...CHOSEN_AT_CONNECT.keys(), "secretFile"].filter(
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
  const pageOnly = [...CHOSEN_AT_CONNECT.keys()].filter((o) => options[o] !== undefined);
  if (sandboxOnly.length > 0) {
    throw new CliError(
      `--${sandboxOnly[0]} applies to sandbox accounts only; a live account reports its own.`,
    );
  }
  const secret = LIVE_SECRET.get(options.platform);
  if (!secret) return connectThroughNetworkPage(options);
  if (pageOnly.length > 0)
    throw new CliError(`--${flag(pageOnly[0]!)} applies to ${CHOSEN_AT_CONNECT.get(pageOnly[0]!)} only.`);
  // Checked before the secret is asked for, so a wrong --user or --db costs no typing.
  await withStore(options.db, (store) => findUser(store, options.user));
  const value = await readSecret(secret.what, options.secretFile);
  const body: Record<string, unknown> = {
    platform: options.platform,
    [secret.field]: value,
    ...(options.handle !== undefined && { handle: options.handle }),
  };
  for (const field of CREDENTIAL_NETWORKS.flatMap(optionFields)) {
    const given = options[optionName(field)];
    if (given !== undefined) body[field.name] = given;
  }
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
  const credentialOnly = ["handle", ...CREDENTIAL_OPTIONS, "secretFile"].filter(
    (o) => options[o] !== undefined,
  );
  if (credentialOnly.length > 0) {
    throw new CliError(
      `--${flag(credentialOnly[0]!)} does not apply to ${options.platform}: it connects through its own page, where the account is chosen.`,
    );
  }
  // What the account publishes to, chosen at connect: each network's own choice.
  const chosen: Record<string, string> = {};
  for (const [option, network] of CHOSEN_AT_CONNECT) {
    const given = options[option];
    if (given === undefined) continue;
    if (options.platform !== network) throw new CliError(`--${flag(option)} applies to ${network} only.`);
    chosen[option] = String(given);
  }
  await withStore(options.db, async (store) => {
    const user = await findUser(store, options.user);
    const started = await startLiveOAuthConnect(
      store,
      user,
      { platform: options.platform, ...chosen },
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

/** `secretFile` → `secret-file`. */
const flag = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The key commander gives a field's option (`webhook_url` → `webhookUrl`). */
function optionName(field: ConnectField): string {
  return field.name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** "App password" → "app password"; "URL" stays. */
function lowerFirst(text: string): string {
  return text.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
}
