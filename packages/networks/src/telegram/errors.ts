import { NetworkError } from "@socialpub/core";

/*
 * What a Bot API error means for socialpub. Telegram answers {ok:false, error_code, description,
 * parameters:{retry_after}}; the description is the only detail it gives, so it is quoted in every
 * message, after what the user can do about it.
 */

/** Descriptions of a 400 that mean the bot lost its rights in the chat: the account needs attention. */
const LOST_RIGHTS =
  /need administrator rights|not enough rights|CHAT_WRITE_FORBIDDEN|CHAT_ADMIN_REQUIRED|have no rights|member list is inaccessible/i;

export function telegramError(code: number, description: string, retryAfterSeconds?: number): NetworkError {
  const said = `(Telegram said: ${code} ${description})`;
  if (code === 429) {
    const seconds = retryAfterSeconds ?? 1;
    return new NetworkError(
      "telegram",
      "retry",
      `Telegram is limiting how fast the bot sends messages; try again in ${seconds} s ${said}.`,
      { status: code, retryAfterMs: seconds * 1000 },
    );
  }
  if (code === 401 || code === 404) {
    return new NetworkError(
      "telegram",
      "reauth",
      `Telegram does not accept the bot token: the bot was deleted or its token revoked. Copy the bot's current token from @BotFather and connect again ${said}.`,
      { status: code },
    );
  }
  if (code === 403 || (code === 400 && LOST_RIGHTS.test(description))) {
    return new NetworkError(
      "telegram",
      "reauth",
      `The bot cannot post in this chat: add it to the chat as an administrator allowed to post messages, then connect again ${said}.`,
      { status: code },
    );
  }
  if (code === 400 && /chat not found/i.test(description)) {
    return new NetworkError(
      "telegram",
      "refused",
      `Telegram does not know this chat, or the bot is not in it: check the chat (@channelname or its numeric id) and add the bot to it ${said}.`,
      { status: code },
    );
  }
  if (code === 400 && /too long/i.test(description)) {
    return new NetworkError(
      "telegram",
      "refused",
      `The text is too long for Telegram: at most 4096 characters, or 1024 as the caption of a photo or video ${said}.`,
      { status: code },
    );
  }
  if (code === 413) {
    return new NetworkError(
      "telegram",
      "refused",
      `The file is too large for Telegram: bots upload photos up to 10 MB and videos up to 50 MB ${said}.`,
      { status: code },
    );
  }
  if (code >= 500) {
    return new NetworkError("telegram", "retry", `Telegram failed to answer; try again later ${said}.`, {
      status: code,
    });
  }
  return new NetworkError("telegram", "refused", `Telegram refused the request ${said}.`, { status: code });
}
