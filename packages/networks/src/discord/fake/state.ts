/*
 * What the Discord fake remembers: incoming webhooks (id, token, name, guild and channel) and the
 * messages each one executed, with their attachments. Shapes follow the description's
 * GuildIncomingWebhookResponse and MessageResponse.
 */

export interface FakeWebhook {
  id: string;
  token: string;
  name: string;
  guildId: string;
  channelId: string;
  applicationId: string | null;
  /** A forum channel's webhook: each message goes to a thread, opened by thread_name or named by thread_id. */
  forum: boolean;
}

/** A thread a webhook opened in a forum channel (thread_name): its id is the channel its messages are in. */
export interface FakeThread {
  id: string;
  name: string;
  parentId: string;
}

export interface StoredPoll {
  question: string;
  answers: string[];
  /** Hours it stays open (24 when the message did not say). */
  hours: number;
  multiselect: boolean;
}

export interface StoredAttachment {
  id: string;
  filename: string;
  size: number;
  contentType: string;
  description?: string;
}

export interface StoredMessage {
  id: string;
  webhookId: string;
  channelId: string;
  content: string;
  attachments: StoredAttachment[];
  timestamp: string;
  /** The name the message was posted under: the webhook's, or the request's `username`. */
  username: string;
  poll?: StoredPoll;
}

const DISCORD_EPOCH = 1_420_070_400_000n;
let increment = 0n;

/** A snowflake: milliseconds since Discord's epoch, shifted, with a counter below. */
export function snowflake(now = Date.now()): string {
  increment = (increment + 1n) % 4096n;
  return String(((BigInt(now) - DISCORD_EPOCH) << 22n) | increment);
}

export function webhookOf(webhook: FakeWebhook, apiUrl: string) {
  return {
    application_id: webhook.applicationId,
    avatar: null,
    channel_id: webhook.channelId,
    guild_id: webhook.guildId,
    id: webhook.id,
    name: webhook.name,
    type: 1,
    token: webhook.token,
    url: `${apiUrl}/api/webhooks/${webhook.id}/${webhook.token}`,
  };
}

export function messageOf(webhook: FakeWebhook, message: StoredMessage, apiUrl: string) {
  return {
    id: message.id,
    type: 0,
    content: message.content,
    channel_id: message.channelId,
    author: {
      id: webhook.id,
      username: message.username,
      avatar: null,
      discriminator: "0000",
      public_flags: 0,
      flags: 0,
      bot: true,
      global_name: null,
      primary_guild: null,
    },
    attachments: message.attachments.map((a) => ({
      id: a.id,
      filename: a.filename,
      size: a.size,
      url: `${apiUrl}/attachments/${message.channelId}/${a.id}/${encodeURIComponent(a.filename)}`,
      proxy_url: `${apiUrl}/media/attachments/${message.channelId}/${a.id}/${encodeURIComponent(a.filename)}`,
      content_type: a.contentType,
      ...(a.description !== undefined ? { description: a.description } : {}),
    })),
    embeds: [],
    mentions: [],
    mention_roles: [],
    pinned: false,
    mention_everyone: false,
    tts: false,
    timestamp: message.timestamp,
    edited_timestamp: null,
    flags: 0,
    components: [],
    webhook_id: webhook.id,
    ...(message.poll
      ? {
          poll: {
            question: { text: message.poll.question },
            answers: message.poll.answers.map((text, i) => ({ answer_id: i + 1, poll_media: { text } })),
            expiry: new Date(Date.parse(message.timestamp) + message.poll.hours * 3_600_000)
              .toISOString()
              .replace("Z", "+00:00"),
            allow_multiselect: message.poll.multiselect,
            layout_type: 1,
            results: { answer_counts: [], is_finalized: false },
          },
        }
      : {}),
  };
}
