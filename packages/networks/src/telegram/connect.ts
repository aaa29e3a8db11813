import { type ConnectedAccount, NetworkError } from "@socialpub/core";
import { type BotApiConfig, callBotApi } from "./bot-api.ts";
import type { BotChat, BotChatMember, BotUser, TelegramCredentials } from "./types.ts";

/*
 * Connecting = checking, at once, what publishing will need: the token is a bot's (getMe), the chat
 * exists and the bot can see it (getChat), the bot may post there (getChatMember on itself), and how
 * many members or subscribers the chat has (getChatMemberCount) for the account's followers.
 */

const TOKEN_SHAPE = /^\d+:[A-Za-z0-9_-]{30,}$/;
const USERNAME_SHAPE = /^@?([A-Za-z][A-Za-z0-9_]{3,31})$/;

const refused = (message: string) => new NetworkError("telegram", "refused", message);

function tokenOf(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw refused("bot_token is required: the token @BotFather gave the bot (it looks like 123456789:AAE…).");
  }
  const token = value.trim();
  if (!TOKEN_SHAPE.test(token)) {
    throw refused(
      "bot_token is not a Telegram bot token: copy the whole token @BotFather gave the bot (digits, a colon, then 35 characters).",
    );
  }
  return token;
}

/** The chat as getChat takes it: a numeric id, or @username. */
function chatOf(value: unknown): number | string {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string") {
    const text = value.trim().replace(/^https:\/\/t\.me\//, "");
    if (/^-?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
    const name = USERNAME_SHAPE.exec(text)?.[1];
    if (name) return `@${name}`;
  }
  throw refused(
    "chat must be the channel or group to post to: its @username (for example @mychannel) or its numeric id (for example -1001234567890).",
  );
}

function whyBotCannotPost(chat: BotChat, member: BotChatMember, bot: string): string | null {
  const where = chat.type === "channel" ? "channel" : "group";
  if (member.status === "left") return `${bot} is not a member of this ${where}: add it as an administrator`;
  if (member.status === "kicked")
    return `${bot} was removed from this ${where}: add it back as an administrator`;
  if (chat.type === "channel") {
    if (member.status === "creator") return null;
    if (member.status === "administrator" && member.can_post_messages !== false) return null;
    return member.status === "administrator"
      ? `${bot} is an administrator of this channel without the right to post messages: turn on "Post messages" for it in the channel's administrators`
      : `${bot} must be an administrator of this channel allowed to post messages`;
  }
  if (member.status === "restricted" && member.can_send_messages === false) {
    return `${bot} is restricted in this group and may not send messages: lift the restriction or make it an administrator`;
  }
  return null;
}

export async function connectTelegram(
  config: BotApiConfig,
  fields: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
): Promise<ConnectedAccount> {
  const token = tokenOf(fields.bot_token);
  const chatRef = chatOf(fields.chat);
  const me = (await callBotApi(config, token, "getMe", {}, signal, false)) as BotUser;
  const bot = me.username ? `@${me.username}` : `The bot ${me.first_name}`;
  const chat = (await callBotApi(config, token, "getChat", { chat_id: chatRef }, signal, false)) as BotChat;
  if (chat.type === "private") {
    throw refused(
      `${String(chatRef)} is a private chat with a person; socialpub posts to a channel or a group.`,
    );
  }
  if (chat.type === "group") {
    throw refused(
      `${chat.title ?? String(chatRef)} is a basic group, whose messages have no links; convert it to a supergroup (make it public, or turn on "Chat history for new members") and connect again.`,
    );
  }
  const member = (await callBotApi(
    config,
    token,
    "getChatMember",
    { chat_id: chat.id, user_id: me.id },
    signal,
    false,
  )) as BotChatMember;
  const problem = whyBotCannotPost(chat, member, bot);
  if (problem) throw refused(`${problem}, then connect again.`);
  const followers = (await callBotApi(
    config,
    token,
    "getChatMemberCount",
    { chat_id: chat.id },
    signal,
    false,
  )) as number;
  const credentials: TelegramCredentials = {
    bot_token: token,
    chat_id: chat.id,
    chat_username: chat.username ?? null,
  };
  return {
    handle: chat.username ? `@${chat.username}` : (chat.title ?? String(chat.id)),
    followers: typeof followers === "number" ? followers : 0,
    health: "healthy",
    credentials: { ...credentials },
  };
}
