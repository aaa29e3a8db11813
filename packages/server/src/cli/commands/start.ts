import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import {
  type CredentialKeyring,
  isPlainWebhookSecret,
  PUBLISH_CONCURRENCY,
  type Store,
} from "@socialpub/core";
import { Command, Option } from "commander";
import { environmentWithConfig } from "../../live/config-file.ts";
import { publicUrlFrom } from "../../live/public-url.ts";
import { keyringFrom, serverKeyring, serverKeySource } from "../../live/secret-key.ts";
import { createLogger, LOG_FORMATS, type LogFormat, type LogLevel, logFormatFor } from "../../logging.ts";
import { FileMediaStorage } from "../../media/file-media-storage.ts";
import { DEFAULT_RETENTION_DAYS } from "../../retention.ts";
import { startServer } from "../../server.ts";
import { lockDatabaseForServer } from "../../store/server-lock.ts";
import type { Synchronous } from "../../store/sqlite/sqlite-store.ts";
import { DEV_EMAIL, setUpDevUser } from "../admin/dev-user.ts";
import { CliError, describeFailure } from "../errors.ts";
import { readTlsFiles } from "../input/tls-files.ts";
import { isPostgresUrl, openStore } from "../open-store.ts";
import {
  configOption,
  DEFAULT_HOST,
  DEFAULT_PORT,
  dbOption,
  logLevelOption,
  parseNonNegativeInteger,
  parsePort,
  parsePositiveInteger,
  parseSwitch,
  parseTestKey,
  secretKeyFileOption,
} from "../options.ts";
import { assertCanListen, listenFailure } from "../port-check.ts";

interface StartOptions {
  host: string;
  port: number;
  db: string;
  dev?: boolean;
  devKey?: string;
  logLevel: LogLevel;
  synchronous: Synchronous;
  allowPrivateWebhooks?: boolean;
  allowPrivateUrls?: boolean;
  secretKeyFile?: string;
  config?: string;
  rateLimit: number;
  retentionDays: number;
  poolSize: number;
  statementTimeoutMs: number;
  publishLeaseMs: number;
  publishConcurrency: number;
  mediaDir?: string;
  /** undefined: neither flag nor variable given (then it follows --dev). */
  dashboard?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy: boolean;
  logFormat: LogFormat | "auto";
}

const ENVIRONMENT = `
Environment variables (a flag given on the command line wins):
  SOCIALPUB_HOST           --host
  SOCIALPUB_PORT           --port
  SOCIALPUB_DB             --db
  SOCIALPUB_MEDIA_DIR      --media-dir
  SOCIALPUB_DEV_KEY        --dev-key (read only with --dev)
  SOCIALPUB_DASHBOARD      --dashboard (on or off)
  SOCIALPUB_LOG_LEVEL      --log-level
  SOCIALPUB_LOG_FORMAT     --log-format
  SOCIALPUB_TLS_CERT       --tls-cert
  SOCIALPUB_TLS_KEY        --tls-key
  SOCIALPUB_TRUST_PROXY    --trust-proxy (on or off)
  SOCIALPUB_SYNCHRONOUS    --synchronous
  SOCIALPUB_RATE_LIMIT     --rate-limit
  SOCIALPUB_RETENTION_DAYS --retention-days
  SOCIALPUB_POOL_SIZE      --pool-size (PostgreSQL)
  SOCIALPUB_STATEMENT_TIMEOUT_MS --statement-timeout-ms (PostgreSQL)
  SOCIALPUB_PUBLISH_LEASE_MS --publish-lease-ms (PostgreSQL)
  SOCIALPUB_PUBLISH_CONCURRENCY --publish-concurrency
  SOCIALPUB_SECRET_KEY     the key that seals live accounts' credentials and webhook secrets
                           (32 bytes, base64; make one with: openssl rand -base64 32); or
                           --secret-key-file. Without either, a server on SQLite makes one in
                           "secret-key" beside the database (back it up with it); PostgreSQL needs one
  SOCIALPUB_SECRET_KEY_FILE --secret-key-file
  SOCIALPUB_PREVIOUS_SECRET_KEYS  keys that sealed credentials before a rotation (comma-separated)
  SOCIALPUB_BLUESKY_SERVICE_URL   the PDS a Bluesky connect without "service" uses (https://bsky.social)
  SOCIALPUB_TELEGRAM_API_URL      the Telegram Bot API (https://api.telegram.org)
  SOCIALPUB_DISCORD_API_URL       Discord (https://discord.com); webhook URLs must be on its host
  SOCIALPUB_PUBLIC_URL            the server's address as browsers and networks reach it (OAuth)
  SOCIALPUB_<NETWORK>_CLIENT_ID, _CLIENT_SECRET, _SCOPES, _API_URL, _AUTH_URL   an OAuth network's app
  SOCIALPUB_REDDIT_USER_AGENT     the descriptive User-Agent Reddit asks for (by /u/<name>)
  SOCIALPUB_TIKTOK_AUDITED        true once TikTok has audited the app; until then TikTok posts
                                  are private (SELF_ONLY)
  SOCIALPUB_TIKTOK_VERIFIED_DOMAINS  domains verified in the TikTok app, which TikTok pulls media
                                  from (comma-separated); other media is uploaded in chunks
  SOCIALPUB_YOUTUBE_AUDITED       true once Google has audited the project; unset or false, YouTube
                                  videos upload as private (all an unaudited project may do)
  SOCIALPUB_CONFIG                --config: the same network settings from a JSON file
                                  (docs/deploy.md, "Network settings in a file")

Stops gracefully on SIGINT or SIGTERM: no new connections, requests in flight finish, then the
scheduler stops, webhook attempts in flight finish (up to 10 s; a cut one is sent again after the
next start), and the database closes.`;

export function startCommand(): Command {
  return new Command("start")
    .description("run the reference service over HTTP (HTTPS with --tls-cert and --tls-key)")
    .addOption(
      new Option("--host <host>", "interface to listen on").env("SOCIALPUB_HOST").default(DEFAULT_HOST),
    )
    .addOption(
      new Option("--port <port>", "port to listen on (0 picks a free one)")
        .env("SOCIALPUB_PORT")
        .default(DEFAULT_PORT)
        .argParser(parsePort),
    )
    .addOption(dbOption())
    .addOption(
      new Option(
        "--media-dir <dir>",
        'folder for uploaded media (default: "media" beside the database; in memory with --db :memory:)',
      ).env("SOCIALPUB_MEDIA_DIR"),
    )
    .option(
      "--dev",
      "on an empty database, create a dev user (studio plan) with a test key and connected sandbox accounts",
    )
    .addOption(
      new Option(
        "--dev-key <key>",
        "with --dev: use this key (sp_test_ + 32 or more letters and digits); SOCIALPUB_DEV_KEY also sets it, with --dev only",
      ).argParser(parseTestKey),
    )
    .addOption(
      new Option("--dashboard [on|off]", "serve the sandbox dashboard at / (on by default with --dev)")
        .env("SOCIALPUB_DASHBOARD")
        .preset("on")
        .argParser(parseSwitch),
    )
    .addOption(new Option("--no-dashboard", "do not serve the dashboard, even with --dev"))
    .option(
      "--allow-private-urls",
      "accept URLs users give (webhooks, media, a Bluesky PDS, a Discord webhook) on loopback, private and link-local addresses (local testing; implied by --dev)",
    )
    .option("--allow-private-webhooks", "the former name of --allow-private-urls")
    .addOption(secretKeyFileOption())
    .addOption(configOption())
    .addOption(
      new Option("--rate-limit <n>", "requests a minute per API key; 0 turns the limit off")
        .env("SOCIALPUB_RATE_LIMIT")
        .default(600)
        .argParser(parseNonNegativeInteger),
    )
    .addOption(
      new Option(
        "--retention-days <n>",
        "keep delivered (or failed) webhook events and their delivery attempts this many days; 0 keeps them forever",
      )
        .env("SOCIALPUB_RETENTION_DAYS")
        .default(DEFAULT_RETENTION_DAYS)
        .argParser(parseNonNegativeInteger),
    )
    .addOption(
      new Option("--pool-size <n>", "PostgreSQL: connections this instance keeps at most")
        .env("SOCIALPUB_POOL_SIZE")
        .default(10)
        .argParser(parsePositiveInteger),
    )
    .addOption(
      new Option(
        "--statement-timeout-ms <ms>",
        "PostgreSQL: longest a statement may run before the database cancels it (the request answers 503)",
      )
        .env("SOCIALPUB_STATEMENT_TIMEOUT_MS")
        .default(5000)
        .argParser(parsePositiveInteger),
    )
    .addOption(
      new Option(
        "--publish-lease-ms <ms>",
        "PostgreSQL: how long an instance's claim of a due post lasts; if it dies while publishing, another instance takes the post over after this",
      )
        .env("SOCIALPUB_PUBLISH_LEASE_MS")
        .default(60_000)
        .argParser(parsePositiveInteger),
    )
    .addOption(
      new Option(
        "--publish-concurrency <n>",
        "scheduled posts and retries this instance publishes at once; a burst of due posts goes out at up to this many ÷ the networks' answer time a second",
      )
        .env("SOCIALPUB_PUBLISH_CONCURRENCY")
        .default(PUBLISH_CONCURRENCY)
        .argParser(parsePositiveInteger),
    )
    .addOption(
      new Option(
        "--tls-cert <file>",
        "serve HTTPS with this certificate (PEM, with its chain); needs --tls-key",
      ).env("SOCIALPUB_TLS_CERT"),
    )
    .addOption(new Option("--tls-key <file>", "the private key of --tls-cert (PEM)").env("SOCIALPUB_TLS_KEY"))
    .addOption(
      new Option(
        "--trust-proxy [on|off]",
        "behind a reverse proxy that sets X-Forwarded-Proto and X-Forwarded-Host (or Forwarded): build the URLs the server gives (uploaded media's) from them. Only with such a proxy, which must replace what clients send",
      )
        .env("SOCIALPUB_TRUST_PROXY")
        .preset("on")
        .default(false)
        .argParser(parseSwitch),
    )
    .addOption(logLevelOption())
    .addOption(
      new Option(
        "--log-format <format>",
        "pretty: one readable line an event; json: one JSON object a line; auto: pretty when the output is a terminal, else json",
      )
        .choices(["auto", ...LOG_FORMATS])
        .env("SOCIALPUB_LOG_FORMAT")
        .default("auto"),
    )
    .addOption(
      new Option(
        "--synchronous <mode>",
        "normal: a write survives the process being killed; full: it also survives power loss, at the cost of a disk sync per write",
      )
        .choices(["normal", "full"])
        .env("SOCIALPUB_SYNCHRONOUS")
        .default("normal"),
    )
    .addHelpText("after", ENVIRONMENT)
    .action(async (options: StartOptions) => start({ ...options, devKey: devKeyOf(options) }));
}

/**
 * The dev key: the flag, else SOCIALPUB_DEV_KEY when --dev is on. The variable may stay set in a shell
 * that also starts servers without --dev; there it means nothing, so it is not read (a --dev-key flag
 * without --dev is a mistake and is refused).
 */
function devKeyOf(options: StartOptions): string | undefined {
  if (options.devKey !== undefined || !options.dev) return options.devKey;
  const fromEnv = process.env.SOCIALPUB_DEV_KEY;
  if (fromEnv === undefined || fromEnv === "") return undefined;
  try {
    return parseTestKey(fromEnv);
  } catch (error) {
    throw new CliError(`SOCIALPUB_DEV_KEY ${describeFailure(error)}`);
  }
}

/**
 * The command that makes a key for `email` on this database, as this process was started: an installed
 * package as `socialpub-server`; the repository (`npm start` included) as `node …/cli.ts`, behind the
 * toolchain wrapper, because the printed line is run from a shell whose Node may be older than 24 (the
 * wrapper runs the command with Node 24, in the folder it is called from). Without the dev user, the
 * e-mail is left for the reader, from `users list`.
 */
function keysCreateCommand(db: string, email: string | null): string {
  const cli = cliCommand(process.argv[1] ?? "");
  const user = email ?? "<e-mail>";
  const command = `${cli} keys create --user ${user} --db ${shellWord(db)}`;
  return email === null ? `${command} (e-mails: ${cli} users list --db ${shellWord(db)})` : command;
}

function cliCommand(script: string): string {
  if (!/cli\.[jt]s$/.test(script)) return "socialpub-server";
  const fromHere = (path: string) => {
    const relativePath = relative(process.cwd(), path);
    return shellWord(relativePath.startsWith("..") ? path : relativePath);
  };
  const node = `node ${fromHere(script)}`;
  // packages/server/src/cli.ts → the repository root, where scripts/toolchain.mjs lives.
  const wrapper = resolve(dirname(script), "..", "..", "..", "scripts", "toolchain.mjs");
  return existsSync(wrapper) ? `node ${fromHere(wrapper)} exec -- ${node}` : node;
}

/** `word` as a shell reads it back: unquoted when it is plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function start(options: StartOptions): Promise<void> {
  if (options.devKey !== undefined && !options.dev) throw new CliError("--dev-key only applies with --dev.");
  const allowPrivateWebhooks = Boolean(
    options.allowPrivateUrls || options.allowPrivateWebhooks || options.dev,
  );
  const keySources = {
    key: process.env.SOCIALPUB_SECRET_KEY,
    file: options.secretKeyFile,
    previous: process.env.SOCIALPUB_PREVIOUS_SECRET_KEYS,
  };
  const keySource = serverKeySource(keySources, options.db);
  // Several instances share a PostgreSQL database: a key one of them made would seal what the others
  // cannot open.
  if (keySource.kind === "none" && isPostgresUrl(options.db)) throw new CliError(keySource.reason);
  let keyring: CredentialKeyring | null = null;
  try {
    // A configured key is read before anything opens; the key file once its folder exists.
    if (keySource.kind !== "key-file") keyring = keyringFrom(keySources);
  } catch (error) {
    throw new CliError(describeFailure(error));
  }
  // Read before anything opens: a mistake in the file stops the start with where it is.
  const settings = environmentWithConfig(options.config);
  const publicUrl = publicUrlFrom(settings.SOCIALPUB_PUBLIC_URL);
  const dashboard = options.dashboard ?? Boolean(options.dev);
  const tls = readTlsFiles(options.tlsCert, options.tlsKey);
  await assertCanListen(options.host, options.port);
  const opened = await openStore(options.db, {
    synchronous: options.synchronous,
    checkpointInBackground: true,
    poolSize: options.poolSize,
    statementTimeoutMs: options.statementTimeoutMs,
    publishLeaseMs: options.publishLeaseMs,
  });
  const { store } = opened;
  // One server per SQLite file; a PostgreSQL database is shared by as many instances as are started.
  let lock: { release(): void } = { release: () => {} };
  if (opened.kind === "sqlite") {
    try {
      lock = lockDatabaseForServer(opened.store.path);
    } catch (error) {
      await store.close();
      throw new CliError(describeFailure(error));
    }
  }
  const mediaDir =
    options.mediaDir !== undefined
      ? resolve(options.mediaDir)
      : opened.kind === "postgres"
        ? resolve(".data", "media")
        : opened.store.path === ":memory:"
          ? null
          : join(dirname(opened.store.path), "media");
  const logger = createLogger({
    level: options.logLevel,
    format: logFormatFor(options.logFormat, process.stdout.isTTY === true),
  });
  if (keySource.kind === "key-file") {
    try {
      // A new key would not open what an earlier key sealed: say which key is missing instead.
      if (!keySource.exists && (await sealedWithAnotherKey(store))) {
        throw new Error(
          `the database holds secrets sealed with a secret key this server was not given, and there is no key file ${keySource.path}: put back the key file kept with the database's backup, or set SOCIALPUB_SECRET_KEY (or pass --secret-key-file) to the key they were sealed with`,
        );
      }
      const own = serverKeyring(keySources, options.db, { create: true });
      keyring = own.keyring;
      if (own.created)
        logger.warn(
          { path: keySource.path },
          `no secret key was configured, so this server made one in ${keySource.path}; back it up with the database (without it, live accounts and webhook secrets cannot be opened)`,
        );
    } catch (error) {
      await store.close();
      lock.release();
      throw new CliError(describeFailure(error));
    }
  }
  let apiKey: string | null = null;
  try {
    if (options.dev) {
      const dev = await setUpDevUser(store, options.devKey);
      apiKey = dev.apiKey;
      if (dev.created) {
        print("Created the dev user (studio plan) with connected sandbox accounts. Its key, shown only now:");
        print(`API key: ${dev.apiKey}`);
      } else if (dev.apiKey === null) {
        print(
          options.devKey !== undefined
            ? "The database already has users and --dev-key is not one of its keys; it was not added."
            : "The database already has users, so --dev created none; keys are shown only when made (the database keeps their hashes).",
        );
        print(`Make a key with: ${keysCreateCommand(options.db, dev.hasDevUser ? DEV_EMAIL : null)}`);
      }
    }
  } catch (error) {
    await store.close();
    lock.release();
    throw new CliError(`cannot set up the dev user: ${describeFailure(error)}`);
  }

  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      host: options.host,
      port: options.port,
      store,
      logger,
      dashboard,
      ...(tls && { tls }),
      trustProxy: options.trustProxy,
      retention: options.retentionDays === 0 ? false : { days: options.retentionDays },
      service: {
        ...(mediaDir !== null && { mediaStorage: new FileMediaStorage(mediaDir) }),
        allowPrivateWebhookUrls: allowPrivateWebhooks,
        liveAdapters: await liveAdapters(settings),
        ...(publicUrl && { publicUrl }),
        ...(keyring && { credentialKeyring: keyring }),
        // Events written by an admin command on this database wake no one: look at the outbox each minute.
        webhookDelivery: { recheckIntervalMs: 60_000 },
        rateLimit: options.rateLimit === 0 ? false : { limit: options.rateLimit, windowMs: 60_000 },
        publishing: { concurrency: options.publishConcurrency },
      },
    });
  } catch (error) {
    await store.close();
    lock.release();
    // Errors from the socket carry a code (EADDRINUSE, ENOTFOUND, …); others come from the service.
    if ((error as NodeJS.ErrnoException).code !== undefined)
      throw listenFailure(options.host, options.port, error);
    throw new CliError(`cannot start the service: ${describeFailure(error)}`);
  }

  // Handlers go in before the "listening" line: whoever reads it may signal at once.
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting at once");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, "shutting down");
    try {
      await server.close();
      await store.close();
      lock.release();
      logger.info({}, "stopped");
      process.exit(0);
    } catch (err) {
      logger.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // Started by a wrapper with an IPC channel (`npm start`): when the wrapper dies, stop as on SIGTERM
  // rather than keep the port with no one to stop it.
  if (process.connected)
    process.once("disconnect", () => {
      if (!stopping) void stop("SIGTERM");
    });

  const base = `${server.url}/api/v1`;
  // One write, so whoever waits for the "listening" line gets the rest with it.
  print(
    [
      `socialpub server listening on ${server.url} (database: ${opened.description}${mediaDir ? `, media: ${mediaDir}` : ""})`,
      `Base URL: ${base}`,
      ...(dashboard ? [`Dashboard: ${server.url}/ (sign in with an API key)`] : []),
      // $KEY, as in the READMEs' tours, for a key the reader holds.
      `Try: curl -H "Authorization: Bearer ${apiKey ?? "$KEY"}" ${base}/me`,
      ...(allowPrivateWebhooks
        ? [
            "Webhook URLs on loopback and private addresses are accepted, and so are such media, PDS and Discord URLs (local testing; never expose this server).",
          ]
        : []),
    ].join("\n"),
  );
  logger.info({ url: server.url, db: opened.description }, "listening");
}

/** Whether the store holds live credentials or webhook secrets sealed with a key (before any key file). */
async function sealedWithAnotherKey(store: Store): Promise<boolean> {
  if ((await store.countAccountsWithCredentials()) > 0) return true;
  return (await store.listWebhookSecrets()).some((w) => !isPlainWebhookSecret(w.secret));
}

/** The live adapters, addressed as the settings say; imported only when the server starts. */
async function liveAdapters(settings: NodeJS.ProcessEnv) {
  const { networkAdapters, networkSettingsFromEnv } = await import("../../live/network-adapters.ts");
  return networkAdapters(networkSettingsFromEnv(settings));
}
