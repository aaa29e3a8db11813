/*
 * What the Telegram fake remembers: bots (by token), chats with the bots' membership in them, and the
 * messages each chat received. Shapes follow the Bot API's User, ChatFullInfo, ChatMember and Message.
 */

export type ChatType = "channel" | "supergroup" | "group" | "private";
export type MemberStatus = "creator" | "administrator" | "member" | "restricted" | "left" | "kicked";

export interface FakeBot {
  id: number;
  token: string;
  username: string;
  firstName: string;
}

export interface Membership {
  status: MemberStatus;
  /** For an administrator of a channel: may it post messages (can_post_messages)? */
  canPost: boolean;
}

export interface StoredFile {
  /** The multipart part's file name, or the URL / file_id the request named. */
  name: string;
  contentType: string;
  size: number;
  kind: "photo" | "video" | "animation";
}

export interface StoredMessage {
  messageId: number;
  date: number;
  text?: string;
  caption?: string;
  file?: StoredFile;
  mediaGroupId?: string;
  /** The message this one replies to (reply_parameters.message_id). */
  replyTo?: number;
  /** Sent with disable_notification (members got no sound). */
  silent?: boolean;
  /** Sent with protect_content (it cannot be forwarded or saved). */
  protected?: boolean;
  poll?: StoredPoll;
}

export interface StoredPoll {
  id: string;
  question: string;
  options: string[];
  isAnonymous: boolean;
  /** Seconds it stays open (open_period), when the sender gave one. */
  openPeriod?: number;
}

export interface FakeChat {
  id: number;
  type: ChatType;
  title: string;
  username?: string;
  memberCount: number;
  members: Map<number, Membership>;
  messages: StoredMessage[];
  /** Until when sends to this chat answer 429 (epoch ms). */
  floodUntil: number;
  /** Send times in the last minute, for the 20-a-minute limit of groups. */
  recentSends: number[];
}

export function userOf(bot: FakeBot) {
  return { id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username };
}

export function chatOf(chat: FakeChat) {
  return {
    id: chat.id,
    type: chat.type,
    ...(chat.type === "private" ? { first_name: chat.title } : { title: chat.title }),
    ...(chat.username ? { username: chat.username } : {}),
  };
}

export function chatFullInfoOf(chat: FakeChat) {
  return {
    ...chatOf(chat),
    accent_color_id: 0,
    max_reaction_count: 11,
    accepted_gift_types: {
      unlimited_gifts: false,
      limited_gifts: false,
      unique_gifts: false,
      premium_subscription: false,
      gifts_from_channels: false,
    },
  };
}

export function chatMemberOf(chat: FakeChat, bot: FakeBot) {
  const user = userOf(bot);
  const m = chat.members.get(bot.id) ?? { status: "left", canPost: false };
  switch (m.status) {
    case "creator":
      return { status: "creator", user, is_anonymous: false };
    case "administrator":
      return {
        status: "administrator",
        user,
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_delete_messages: true,
        can_manage_video_chats: true,
        can_restrict_members: true,
        can_promote_members: false,
        can_change_info: true,
        can_invite_users: true,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
        ...(chat.type === "channel" ? { can_post_messages: m.canPost, can_edit_messages: m.canPost } : {}),
      };
    case "member":
      return { status: "member", user };
    case "restricted":
      return {
        status: "restricted",
        user,
        is_member: true,
        can_send_messages: false,
        can_send_audios: false,
        can_send_documents: false,
        can_send_photos: false,
        can_send_videos: false,
        can_send_video_notes: false,
        can_send_voice_notes: false,
        can_send_polls: false,
        can_send_other_messages: false,
        can_add_web_page_previews: false,
        can_react_to_messages: false,
        can_edit_tag: false,
        can_change_info: false,
        can_invite_users: false,
        can_pin_messages: false,
        can_manage_topics: false,
        until_date: 0,
      };
    case "left":
      return { status: "left", user };
    case "kicked":
      return { status: "kicked", user, until_date: 0 };
  }
}

export function messageOf(
  chat: FakeChat,
  bot: FakeBot,
  message: StoredMessage,
  replied?: StoredMessage,
): Record<string, unknown> {
  const file = message.file;
  const poll = message.poll;
  const fileId = `fake-${chat.id}-${message.messageId}`;
  return {
    message_id: message.messageId,
    date: message.date,
    chat: chatOf(chat),
    ...(chat.type === "channel" ? { sender_chat: chatOf(chat) } : { from: userOf(bot) }),
    ...(message.mediaGroupId ? { media_group_id: message.mediaGroupId } : {}),
    ...(message.text !== undefined ? { text: message.text } : {}),
    ...(file?.kind === "photo"
      ? {
          photo: [
            {
              file_id: `${fileId}-s`,
              file_unique_id: `${fileId}-s`,
              width: 320,
              height: 240,
              file_size: file.size,
            },
            { file_id: fileId, file_unique_id: fileId, width: 1280, height: 960, file_size: file.size },
          ],
        }
      : {}),
    ...(file?.kind === "video"
      ? {
          video: {
            file_id: fileId,
            file_unique_id: fileId,
            width: 1280,
            height: 720,
            duration: 1,
            mime_type: file.contentType,
            file_size: file.size,
          },
        }
      : {}),
    // An animation message carries the file twice, as Telegram sends it: as animation and as document.
    ...(file?.kind === "animation"
      ? {
          animation: {
            file_id: fileId,
            file_unique_id: fileId,
            width: 480,
            height: 270,
            duration: 2,
            file_size: file.size,
          },
          document: {
            file_id: fileId,
            file_unique_id: fileId,
            file_name: file.name,
            mime_type: file.contentType,
            file_size: file.size,
          },
        }
      : {}),
    ...(message.caption !== undefined && message.caption !== "" ? { caption: message.caption } : {}),
    ...(message.protected ? { has_protected_content: true } : {}),
    // Telegram includes the message replied to, without its own reply.
    ...(replied ? { reply_to_message: messageOf(chat, bot, replied) } : {}),
    ...(poll
      ? {
          poll: {
            id: poll.id,
            question: poll.question,
            options: poll.options.map((text, i) => ({
              persistent_id: `${poll.id}-${i}`,
              text,
              voter_count: 0,
            })),
            total_voter_count: 0,
            is_closed: false,
            is_anonymous: poll.isAnonymous,
            type: "regular",
            allows_multiple_answers: false,
            allows_revoting: true,
            members_only: false,
            ...(poll.openPeriod !== undefined
              ? { open_period: poll.openPeriod, close_date: message.date + poll.openPeriod }
              : {}),
          },
        }
      : {}),
  };
}
