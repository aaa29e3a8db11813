import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PartToSend,
  type PollInput,
  type PublishedPost,
  type PublishInput,
  publishThread,
  type SentPart,
} from "@socialpub/core";
import { pollQuestion } from "../common/poll-question.ts";
import type { WaitGate } from "../common/wait-gate.ts";
import type { MessageObject } from "./types.ts";
import { callWebhook, type WebhookApiConfig } from "./webhook-api.ts";
import { parseWebhookUrl } from "./webhook-url.ts";

/*
 * One message = one webhook execution with ?wait=true, so Discord answers with the message it made.
 * Text alone goes as JSON; with files, as multipart: payload_json (the message, each attachment's file
 * name and alt text) and files[0..9]. Mentions in the text never ping anyone (allowed_mentions: none):
 * an automated post must not notify @everyone by accident. Webhooks have no idempotency key, so the
 * post's key is not sent; a send that got no answer is reported as `unknown`.
 *
 * A rich post goes out through publishThread: the first message carries the poll and, for a forum
 * channel's webhook, opens the post's thread (thread_name); the thread's later parts and the first
 * comment follow as the next messages (webhooks cannot reply), in that forum thread when one was
 * opened (thread_id). options.discord.username names the webhook for every message of the post.
 */

export const MAX_FILES = 10;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** A poll's question: at most 300 characters; its duration: 1 to 768 hours (32 days). */
const MAX_POLL_QUESTION = 300;
const MAX_POLL_HOURS = 768;

const refused = (message: string) => new NetworkError("discord", "refused", message);

function credentialsOf(account: AccountSession) {
  const { webhook_url, guild_id, channel_id } = account.credentials;
  if (typeof webhook_url !== "string" || typeof guild_id !== "string" || typeof channel_id !== "string") {
    throw new NetworkError(
      "discord",
      "reauth",
      "The Discord account's stored credentials are incomplete: connect it again.",
    );
  }
  let host: string;
  try {
    host = new URL(webhook_url).host;
  } catch {
    throw new NetworkError(
      "discord",
      "reauth",
      "The Discord account's stored webhook URL is damaged: connect it again.",
    );
  }
  return { webhook: parseWebhookUrl(webhook_url, [host]), guildId: guild_id, channelId: channel_id };
}

function checkFiles(media: readonly MediaFile[]): void {
  if (media.length > MAX_FILES)
    throw refused(`A Discord message carries at most ${MAX_FILES} files; this post has ${media.length}.`);
  for (const file of media) {
    if (file.bytes.byteLength > MAX_FILE_BYTES) {
      throw refused(`${file.filename} is larger than the 10 MB a Discord webhook takes per file.`);
    }
  }
}

/** options.discord, as checked by the contract: `username` and `thread_name`. */
function optionsOf(post: PublishInput): { username?: string; threadName?: string } {
  const options = (post.options ?? {}) as { username?: unknown; thread_name?: unknown };
  return {
    ...(typeof options.username === "string" ? { username: options.username } : {}),
    ...(typeof options.thread_name === "string" ? { threadName: options.thread_name } : {}),
  };
}

/** Discord's poll object: the question, the answers and the duration in whole hours (1–768). */
function pollOf(question: string, poll: PollInput): Record<string, unknown> {
  return {
    question: { text: question },
    answers: poll.options.map((text) => ({ poll_media: { text } })),
    ...(poll.durationMinutes !== null ? { duration: pollHours(poll.durationMinutes) } : {}),
    allow_multiselect: false,
  };
}

/** A duration in minutes as the whole hours Discord takes: the nearest, within 1–768. */
export function pollHours(minutes: number): number {
  return Math.min(MAX_POLL_HOURS, Math.max(1, Math.round(minutes / 60)));
}

/**
 * A message's body: its text and files (each file's alt text as the attachment's description), the
 * webhook's name for this post (`username`), and on the first message the forum thread to open
 * (`thread_name`) and the poll.
 */
function bodyFor(
  text: string,
  media: readonly MediaFile[],
  extra: Record<string, unknown>,
): FormData | Record<string, unknown> {
  const message = { content: text, allowed_mentions: { parse: [] }, ...extra };
  if (media.length === 0) {
    if (text.trim() === "" && !("poll" in extra)) throw refused("A Discord message needs text or files.");
    return message;
  }
  checkFiles(media);
  const form = new FormData();
  const attachments = media.map((file, i) => ({
    id: String(i),
    filename: file.filename,
    ...(file.alt ? { description: file.alt.slice(0, 1024) } : {}),
  }));
  form.set("payload_json", JSON.stringify({ ...message, attachments }));
  media.forEach((file, i) => {
    form.set(
      `files[${i}]`,
      new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.contentType }),
      file.filename,
    );
  });
  return form;
}

/**
 * A thread's later parts and the first comment go where the first message went: into the forum
 * thread it opened (`thread_id`), or the webhook's channel.
 */
function whereOf(root: SentPart | null): string {
  if (!root?.ref) return "";
  const ref = JSON.parse(root.ref) as { thread?: unknown };
  return typeof ref.thread === "string" ? `&thread_id=${ref.thread}` : "";
}

export async function publishDiscord(
  config: WebhookApiConfig,
  gate: WaitGate,
  webUrl: string,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const { webhook, guildId, channelId } = credentialsOf(account);
  const { username, threadName } = optionsOf(post);
  const poll = post.poll ?? null;
  // Nothing goes out when any message of the post could not.
  checkFiles(post.media);
  (post.thread ?? []).forEach((part) => {
    checkFiles(part.media);
  });
  if (poll && post.text.trim() === "") {
    throw refused("A Discord poll needs a question: the post's text is its question.");
  }

  const execute = async (
    body: FormData | Record<string, unknown>,
    where: string,
    signal: AbortSignal,
  ): Promise<MessageObject> => {
    // ?wait=true: Discord answers with the message it made, whose id is the part's.
    const message = (await callWebhook(config, gate, webhook, {
      method: "POST",
      query: `?wait=true${where}`,
      body,
      signal,
      sends: true,
    })) as MessageObject | null;
    if (!message || typeof message.id !== "string") {
      throw new NetworkError(
        "discord",
        "unknown",
        "Discord accepted the message without naming it: check the channel before posting again.",
      );
    }
    return message;
  };
  const sent = (message: MessageObject, thread?: string): SentPart => ({
    id: message.id,
    permalink: `${webUrl}/channels/${guildId}/${message.channel_id ?? channelId}/${message.id}`,
    ...(thread ? { ref: JSON.stringify({ thread }) } : {}),
  });
  const named = username ? { username } : {};

  const send = async (part: PartToSend, _parent: SentPart | null, root: SentPart | null) => {
    if (part.index > 0) {
      // Webhooks cannot reply: later parts are the messages that follow, in order.
      return sent(await execute(bodyFor(part.text, part.media, named), whereOf(root), post.signal));
    }
    let text = part.text;
    const extra: Record<string, unknown> = { ...named };
    if (threadName) extra.thread_name = threadName;
    if (poll) {
      // The text is the poll's question; a text longer than a question stays the message's content.
      const question = part.text.trim();
      if ([...question].length <= MAX_POLL_QUESTION) {
        extra.poll = pollOf(question, poll);
        text = "";
      } else {
        extra.poll = pollOf(pollQuestion(question, MAX_POLL_QUESTION), poll);
      }
    }
    const message = await execute(bodyFor(text, part.media, extra), "", post.signal);
    // A forum post opens a thread: the message's channel is that thread, where the rest follows.
    const thread =
      threadName && message.channel_id && message.channel_id !== channelId ? message.channel_id : undefined;
    return sent(message, thread);
  };

  if ((post.thread ?? []).length === 0 && !post.firstComment) {
    const one = await send(
      { index: 0, count: 1, text: post.text, media: post.media, step: null, saveStep: async () => {} },
      null,
      null,
    );
    return { id: one.id, permalink: one.permalink };
  }
  return publishThread("discord", post, {
    send,
    // A webhook reads nothing back, so there is no `find`: a part whose answer never came fails as
    // "outcome unknown" rather than being sent twice.
    comment: async (text, root) => sent(await execute(bodyFor(text, [], named), whereOf(root), post.signal)),
  });
}
