import { type AccountSession, NetworkError } from "@socialpub/core";
import { type BotApiConfig, callBotApi } from "./bot-api.ts";
import { credentialsOf } from "./publish.ts";

/** The chat's members or subscribers now (getChatMemberCount), as connect read them. */
export async function readTelegramFollowers(
  config: BotApiConfig,
  account: AccountSession,
  signal: AbortSignal,
): Promise<number> {
  const { bot_token, chat_id } = credentialsOf(account);
  const count = await callBotApi(config, bot_token, "getChatMemberCount", { chat_id }, signal, false);
  if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) {
    throw new NetworkError(
      "telegram",
      "retry",
      "Telegram answered getChatMemberCount without a member count.",
    );
  }
  return count;
}
