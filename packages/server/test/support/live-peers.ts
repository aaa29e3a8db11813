import { type BlueskyPeer, type PeerAccount, startBlueskyPeer } from "@socialpub/networks/bluesky/peer";
import { DiscordFake } from "@socialpub/networks/discord/fake";
import { TelegramFake } from "@socialpub/networks/telegram/fake";
import { withProcessSlot } from "./process-slots.ts";

/**
 * The networks' peers a live-key test connects and publishes to: a real Bluesky PDS with an account
 * (alice), a Telegram fake with a bot that may post in a channel, and a Discord fake with a webhook.
 * The PDS is a child process, so it takes one of the suite's process slots.
 */
export interface LivePeers {
  peer: BlueskyPeer;
  telegram: TelegramFake;
  discord: DiscordFake;
  alice: PeerAccount;
  bot: { id: number; token: string };
  chat: { id: number };
  hook: ReturnType<DiscordFake["addWebhook"]>;
  /** Stops every peer that started. */
  stop(): Promise<void>;
}

export async function startLivePeers(channel: { title: string; username: string }): Promise<LivePeers> {
  const [peer, telegram, discord] = await Promise.all([
    withProcessSlot(() => startBlueskyPeer()),
    TelegramFake.start(),
    DiscordFake.start(),
  ]);
  const alice = await peer.createAccount("alice");
  const { bot, chat } = telegram.addChannelWithBot({
    bot: { username: "socialpub_bot" },
    ...channel,
    memberCount: 40,
  });
  const hook = discord.addWebhook({ name: "Releases" });
  const stop = async () => {
    await Promise.all([peer.stop(), telegram.close(), discord.close()]);
  };
  return { peer, telegram, discord, alice, bot, chat, hook, stop };
}
