import { NETWORK_RULES, type NetworkAdapter, withoutTrailingSlashes } from "@socialpub/core";
import { WaitGate } from "../common/wait-gate.ts";
import type { BotApiConfig } from "./bot-api.ts";
import { connectTelegram } from "./connect.ts";
import { telegramDescription } from "./describe.ts";
import { readTelegramFollowers } from "./followers.ts";
import { MAX_UPLOAD_BYTES, publishTelegram } from "./publish.ts";

export interface TelegramAdapterOptions {
  /** The Bot API's base URL (default https://api.telegram.org; the server reads SOCIALPUB_TELEGRAM_API_URL). */
  apiUrl?: string;
  /** Longest flood wait slept through before a send; longer ones come back as a retry (default 2 s). */
  maxWaitMs?: number;
  fetch?: typeof fetch;
}

export const TELEGRAM_API_URL = "https://api.telegram.org";

/**
 * Telegram through a bot (Bot API): the bot is an administrator of the channel, or a member of the
 * supergroup, it posts to. The Bot API reports no views or reactions to bots, so there is no
 * readMetrics; and no way to look a message up by our key, so there is no findPublished. Followers
 * are the chat's member count (getChatMemberCount), read at connect and by readFollowers.
 */
export function telegramAdapter(options: TelegramAdapterOptions = {}): NetworkAdapter {
  const config: BotApiConfig = {
    apiUrl: withoutTrailingSlashes(options.apiUrl ?? TELEGRAM_API_URL),
    fetch: options.fetch ?? globalThis.fetch,
  };
  const gate = new WaitGate({ maxWaitMs: options.maxWaitMs ?? 2000 });
  return {
    id: "telegram",
    rule: NETWORK_RULES.telegram,
    pacing: telegramDescription.pacing,
    maxMediaBytes: MAX_UPLOAD_BYTES,
    connect: (fields, context) => connectTelegram(config, fields, context.signal),
    publish: (account, post) => publishTelegram(config, gate, account, post),
    readFollowers: (account, signal) => readTelegramFollowers(config, account, signal),
  };
}
