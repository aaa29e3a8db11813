import { randomBytes } from "node:crypto";
import type { NetworkId } from "@socialpub/core";
import { type BlueskyPeer, type PeerAccount, startBlueskyPeer } from "@socialpub/networks/bluesky/peer";
import { DiscordFake } from "@socialpub/networks/discord/fake";
import { LinkedInFake } from "@socialpub/networks/linkedin/fake";
import { TelegramFake } from "@socialpub/networks/telegram/fake";
import { ThreadsFake } from "@socialpub/networks/threads/fake";
import { XFake } from "@socialpub/networks/x/fake";
import { grantInBrowser } from "./oauth-browser.ts";
import { withProcessSlot } from "./process-slots.ts";

/*
 * The networks' local peers a server with live keys publishes to, for the suites that run their
 * scenarios in live mode (service conformance, reliability): a real Bluesky PDS, and the X, LinkedIn,
 * Threads, Telegram and Discord fakes. One table says, per network, how its peer starts, what the
 * server is told about it (the environment `socialpub-server start` reads; `networkSettingsFromEnv`
 * turns it into an in-process server's addresses), how a person connects an account of it, and how
 * many posts with a caption the network holds, so a suite can check each post is there exactly once.
 */

/** The networks that have a peer here. */
export type PeerNetwork = "bluesky" | "x" | "linkedin" | "threads" | "telegram" | "discord";

/** Sends POST /accounts/connect for the user being connected and answers status and body. */
// biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field by the tests.
export type ConnectRequest = (body: Record<string, unknown>) => Promise<{ status: number; body: any }>;

interface Peer {
  /** What the server is told about the peer: its addresses and the app registered on it. */
  env: Record<string, string>;
  /**
   * Connects an account as a person does. `person` names the person on the network: X refuses a
   * duplicate post by one person, so a suite whose users post the same captions gives each their own.
   */
  connect(send: ConnectRequest, person: string): Promise<void>;
  /** How many posts (messages, records) with this text the network holds; every post without one. */
  count(caption?: string): Promise<number>;
  stop(): Promise<void>;
}

export interface NetworkPeers {
  readonly networks: readonly PeerNetwork[];
  /** The environment a server process needs to publish to every peer (and its secret key). */
  readonly env: Record<string, string>;
  connect(network: NetworkId, send: ConnectRequest, person?: string): Promise<void>;
  /** How many posts with this caption `network` holds; how many in all without one. */
  count(network: NetworkId, caption?: string): Promise<number>;
  stop(): Promise<void>;
}

async function expectCreated(res: Promise<{ status: number; body: unknown }>, network: string) {
  const answer = await res;
  if (answer.status !== 201) {
    throw new Error(`connecting ${network} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer.body as Record<string, string>;
}

/** An OAuth network's fake, as far as a peer needs it. */
interface OAuthFake {
  readonly url: string;
  addApp(): { clientId: string; clientSecret: string };
  close(): Promise<void>;
}

/**
 * An OAuth network's peer: an app registered on its fake, and a connect in which the person signs in
 * on the fake and presses its consent button. `prefix` is the network's part of the server's
 * environment names (SOCIALPUB_<prefix>_API_URL and so on), `authPath` its authorize page's path.
 */
function oauthPeer<F extends OAuthFake>(
  network: string,
  fake: F,
  names: { prefix: string; authPath: string },
  signIn: (person: string) => void,
  texts: () => readonly (string | undefined)[],
): Peer {
  const app = fake.addApp();
  const { prefix, authPath } = names;
  return {
    env: {
      [`SOCIALPUB_${prefix}_API_URL`]: fake.url,
      [`SOCIALPUB_${prefix}_AUTH_URL`]: `${fake.url}${authPath}`,
      [`SOCIALPUB_${prefix}_CLIENT_ID`]: app.clientId,
      [`SOCIALPUB_${prefix}_CLIENT_SECRET`]: app.clientSecret,
    },
    async connect(send, person) {
      signIn(person);
      const started = await expectCreated(send({ platform: network }), network);
      const page = await grantInBrowser(started.authorize_url!);
      if (page.status !== 200)
        throw new Error(`the ${network} callback answered ${page.status}: ${page.html}`);
    },
    count: async (caption) => counted(texts(), caption),
    stop: () => fake.close(),
  };
}

const counted = (texts: readonly (string | undefined)[], caption: string | undefined) =>
  caption === undefined ? texts.length : texts.filter((t) => t === caption).length;

async function blueskyRecords(peer: BlueskyPeer, account: PeerAccount): Promise<string[]> {
  const owner = await peer.ownerAgent(account);
  const texts: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await owner.com.atproto.repo.listRecords({
      repo: account.did,
      collection: "app.bsky.feed.post",
      limit: 100,
      ...(cursor && { cursor }),
    });
    texts.push(...page.data.records.map((r) => (r.value as { text: string }).text));
    cursor = page.data.records.length === 100 ? page.data.cursor : undefined;
  } while (cursor);
  return texts;
}

const PEERS: Record<PeerNetwork, () => Promise<Peer>> = {
  async bluesky() {
    const peer = await withProcessSlot(() => startBlueskyPeer());
    const account = await peer.createAccount("live");
    return {
      env: { SOCIALPUB_BLUESKY_SERVICE_URL: peer.url },
      connect: async (send) => {
        const { handle, appPassword } = account;
        await expectCreated(
          send({ platform: "bluesky", handle, app_password: appPassword, service: peer.url }),
          "bluesky",
        );
      },
      count: async (caption) => counted(await blueskyRecords(peer, account), caption),
      stop: () => peer.stop(),
    };
  },
  async x() {
    const x = await XFake.start();
    // A suite publishes hundreds of posts with one app: the per-user window is what X's own tests check.
    x.postsPerWindow = Number.MAX_SAFE_INTEGER;
    return oauthPeer(
      "x",
      x,
      { prefix: "X", authPath: "/i/oauth2/authorize" },
      (person) => x.signIn(x.addUser({ username: person })),
      () => x.posts.map((p) => p.text),
    );
  },
  async linkedin() {
    const linkedin = await LinkedInFake.start();
    linkedin.postsPerDay = Number.MAX_SAFE_INTEGER;
    return oauthPeer(
      "linkedin",
      linkedin,
      { prefix: "LINKEDIN", authPath: "" },
      (person) => linkedin.signIn(linkedin.addMember({ name: person })),
      () => linkedin.posts.map((p) => p.commentary),
    );
  },
  async threads() {
    const threads = await ThreadsFake.start();
    threads.postsPerDay = Number.MAX_SAFE_INTEGER;
    return oauthPeer(
      "threads",
      threads,
      { prefix: "THREADS", authPath: "/oauth/authorize" },
      (person) => threads.signIn(threads.addUser({ username: person })),
      () => threads.posts.map((p) => p.text),
    );
  },
  async telegram() {
    const telegram = await TelegramFake.start();
    const { bot, chat } = telegram.addChannelWithBot({
      bot: { username: "socialpub_bot" },
      title: "Live",
      username: "live_channel",
    });
    return {
      env: { SOCIALPUB_TELEGRAM_API_URL: telegram.url },
      connect: async (send) => {
        await expectCreated(
          send({ platform: "telegram", bot_token: bot.token, chat: "@live_channel" }),
          "telegram",
        );
      },
      count: async (caption) =>
        counted(
          telegram.messages(chat.id).map((m) => m.text ?? m.caption),
          caption,
        ),
      stop: () => telegram.close(),
    };
  },
  async discord() {
    const discord = await DiscordFake.start();
    const hook = discord.addWebhook({ name: "Live" });
    return {
      env: { SOCIALPUB_DISCORD_API_URL: discord.url },
      connect: async (send) => {
        await expectCreated(send({ platform: "discord", webhook_url: hook.url }), "discord");
      },
      count: async (caption) =>
        counted(
          discord.messages(hook.id).map((m) => m.content),
          caption,
        ),
      stop: () => discord.close(),
    };
  },
};

/** Starts the peers of `networks` (every one that started is stopped again when another fails). */
export async function startNetworkPeers(networks: readonly PeerNetwork[]): Promise<NetworkPeers> {
  const started = await Promise.allSettled(networks.map((network) => PEERS[network]()));
  const peers = new Map<string, Peer>();
  started.forEach((result, i) => {
    if (result.status === "fulfilled") peers.set(networks[i]!, result.value);
  });
  const stop = async () => {
    await Promise.all([...peers.values()].map((peer) => peer.stop()));
  };
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const peer = (network: NetworkId) => {
    const found = peers.get(network);
    if (!found) throw new Error(`no peer of ${network} runs here: start it with startNetworkPeers`);
    return found;
  };
  return {
    networks,
    env: Object.assign(
      { SOCIALPUB_SECRET_KEY: randomBytes(32).toString("base64") },
      ...[...peers.values()].map((p) => p.env),
    ),
    connect: (network, send, person = `live_${network}`) => peer(network).connect(send, person),
    count: (network, caption) => peer(network).count(caption),
    stop,
  };
}
