import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
} from "@socialpub/core";
import type { WaitGate } from "../common/wait-gate.ts";
import type { MessageObject } from "./types.ts";
import { callWebhook, type WebhookApiConfig } from "./webhook-api.ts";
import { parseWebhookUrl } from "./webhook-url.ts";

/*
 * One post = one webhook execution with ?wait=true, so Discord answers with the message it made. Text
 * alone goes as JSON; with files, as multipart: payload_json (the message, each attachment's file name
 * and alt text) and files[0..9]. Mentions in the text never ping anyone (allowed_mentions: none): an
 * automated post must not notify @everyone by accident. Webhooks have no idempotency key, so the post's
 * key is not sent; a send that got no answer is reported as `unknown`.
 */

export const MAX_FILES = 10;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

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

function bodyFor(post: PublishInput): FormData | Record<string, unknown> {
  const message = { content: post.text, allowed_mentions: { parse: [] } };
  if (post.media.length === 0) {
    if (post.text.trim() === "") throw refused("A Discord message needs text or files.");
    return message;
  }
  checkFiles(post.media);
  const form = new FormData();
  const attachments = post.media.map((file, i) => ({
    id: String(i),
    filename: file.filename,
    ...(file.alt ? { description: file.alt.slice(0, 1024) } : {}),
  }));
  form.set("payload_json", JSON.stringify({ ...message, attachments }));
  post.media.forEach((file, i) => {
    form.set(
      `files[${i}]`,
      new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.contentType }),
      file.filename,
    );
  });
  return form;
}

export async function publishDiscord(
  config: WebhookApiConfig,
  gate: WaitGate,
  webUrl: string,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const { webhook, guildId, channelId } = credentialsOf(account);
  const body = bodyFor(post);
  const message = (await callWebhook(config, gate, webhook, {
    method: "POST",
    query: "?wait=true",
    body,
    signal: post.signal,
    sends: true,
  })) as MessageObject | null;
  if (!message || typeof message.id !== "string") {
    throw new NetworkError(
      "discord",
      "unknown",
      "Discord accepted the message without naming it: check the channel before posting again.",
    );
  }
  return {
    id: message.id,
    permalink: `${webUrl}/channels/${guildId}/${message.channel_id ?? channelId}/${message.id}`,
  };
}
