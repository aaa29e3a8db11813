// Starts a network fake by hand, for trying the server against it or for another process's tests:
//   node packages/networks/src/fake-cli.ts telegram|discord [--port N]
// Prints one JSON line on stdout (the fake's URL, the environment variable that points the server at
// it, and the POST /accounts/connect body of a seeded account), then each request on stderr, until
// it is stopped (Ctrl-C, SIGTERM).
import { parseArgs } from "node:util";
import { DiscordFake } from "./discord/fake/server.ts";
import { TelegramFake } from "./telegram/fake/server.ts";

const USAGE = "usage: node packages/networks/src/fake-cli.ts telegram|discord [--port N]";

interface Started {
  url: string;
  connect: Record<string, unknown>;
  specViolations: string[];
  close(): Promise<void>;
}

function logRequest(network: string, method: string, status: number): void {
  process.stderr.write(`${network} ${method} ${status}\n`);
}

async function startTelegram(port: number | undefined): Promise<Started> {
  const fake = await TelegramFake.start({
    port,
    onRequest: (r) => logRequest("telegram", r.method, r.status),
  });
  const { bot } = fake.addChannelWithBot({
    bot: { username: "socialpub_demo_bot", firstName: "socialpub demo" },
    title: "socialpub demo",
    username: "socialpub_demo",
    memberCount: 42,
  });
  return Object.assign(fake, {
    connect: { platform: "telegram", bot_token: bot.token, chat: "@socialpub_demo" },
  });
}

async function startDiscord(port: number | undefined): Promise<Started> {
  const fake = await DiscordFake.start({ port, onRequest: (r) => logRequest("discord", r.method, r.status) });
  const webhook = fake.addWebhook({ name: "socialpub demo" });
  return Object.assign(fake, { connect: { platform: "discord", webhook_url: webhook.url } });
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ options: { port: { type: "string" } }; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ options: { port: { type: "string" } }, allowPositionals: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [network, ...rest] = parsed.positionals;
  const port = parsed.values.port === undefined ? undefined : Number(parsed.values.port);
  if (
    (network !== "telegram" && network !== "discord") ||
    rest.length > 0 ||
    (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
  ) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const fake = network === "telegram" ? await startTelegram(port) : await startDiscord(port);
  const env = network === "telegram" ? "SOCIALPUB_TELEGRAM_API_URL" : "SOCIALPUB_DISCORD_API_URL";
  process.stdout.write(
    `${JSON.stringify({ network, url: fake.url, env: { [env]: fake.url }, connect: fake.connect })}\n`,
  );
  process.stderr.write(
    `${network} fake on ${fake.url}: start the server with ${env}=${fake.url} and --dev (the fake is on loopback), then connect a live account with the body above.\n`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await fake.close();
  if (fake.specViolations.length > 0) {
    process.stderr.write(
      `traffic that strays from the network's API description:\n${fake.specViolations.join("\n")}\n`,
    );
    return 1;
  }
  return 0;
}

process.exitCode = await main();
