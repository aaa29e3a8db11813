/* The parts of the Bot API's answers the adapter reads (the full shapes are in telegram-bot-api.json). */

export interface BotUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

export interface BotChat {
  id: number;
  type: "private" | "group" | "supergroup" | "channel";
  title?: string;
  username?: string;
  first_name?: string;
}

export interface BotChatMember {
  status: "creator" | "administrator" | "member" | "restricted" | "left" | "kicked";
  can_post_messages?: boolean;
  can_send_messages?: boolean;
}

export interface BotMessage {
  message_id: number;
  chat: BotChat;
}

/** What a connected Telegram account keeps (encrypted by the service). */
export interface TelegramCredentials {
  bot_token: string;
  /** The chat's numeric id, resolved at connect from @name or the id given. */
  chat_id: number;
  /** The chat's public username (no @), or null for a private chat. */
  chat_username: string | null;
}
