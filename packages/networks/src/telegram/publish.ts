import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
} from "@socialpub/core";
import type { WaitGate } from "../common/wait-gate.ts";
import { type BotApiConfig, type BotApiParams, callBotApi } from "./bot-api.ts";
import { telegramPermalink } from "./permalink.ts";
import type { BotMessage, TelegramCredentials } from "./types.ts";

/*
 * One post = one Bot API call: text alone → sendMessage; one photo, video or GIF → sendPhoto /
 * sendVideo / sendAnimation with the text as its caption; 2–10 → sendMediaGroup (an album; the caption rides on the first
 * item). Files are uploaded as multipart parts. The Bot API has no idempotency key, so the post's key
 * is not sent; a send that got no answer is reported as `unknown`.
 */

export const MAX_ALBUM = 10;
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

const refused = (message: string) => new NetworkError("telegram", "refused", message);

export function credentialsOf(account: AccountSession): TelegramCredentials {
  const { bot_token, chat_id, chat_username } = account.credentials;
  if (typeof bot_token !== "string" || typeof chat_id !== "number") {
    throw new NetworkError(
      "telegram",
      "reauth",
      "The Telegram account's stored credentials are incomplete: connect it again.",
    );
  }
  return { bot_token, chat_id, chat_username: typeof chat_username === "string" ? chat_username : null };
}

type Kind = "photo" | "video" | "animation";

function kindOf(file: MediaFile): Kind {
  if (file.contentType === "image/gif") {
    if (file.bytes.byteLength > MAX_UPLOAD_BYTES) {
      throw refused(`${file.filename} is larger than the 50 MB Telegram takes for an animation from a bot.`);
    }
    return "animation";
  }
  if (file.contentType.startsWith("image/")) {
    if (file.bytes.byteLength > MAX_PHOTO_BYTES) {
      throw refused(`${file.filename} is larger than the 10 MB Telegram takes for a photo from a bot.`);
    }
    return "photo";
  }
  if (file.contentType.startsWith("video/")) {
    if (file.bytes.byteLength > MAX_UPLOAD_BYTES) {
      throw refused(`${file.filename} is larger than the 50 MB Telegram takes for a video from a bot.`);
    }
    return "video";
  }
  throw refused(
    `${file.filename} is ${file.contentType}; Telegram posts from socialpub carry photos and videos only.`,
  );
}

function blobOf(file: MediaFile): Blob {
  return new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.contentType });
}

/** The method and parameters for a post. */
function requestFor(chatId: number, post: PublishInput): { method: string; params: BotApiParams } {
  const { text, media } = post;
  if (media.length === 0) {
    if (text.trim() === "") throw refused("A Telegram message needs text or media.");
    return { method: "sendMessage", params: { chat_id: chatId, text } };
  }
  if (media.length > MAX_ALBUM)
    throw refused(
      `Telegram albums hold at most ${MAX_ALBUM} photos or videos; this post has ${media.length}.`,
    );
  const kinds = media.map(kindOf);
  const form = new FormData();
  form.set("chat_id", String(chatId));
  if (media.length === 1) {
    const kind = kinds[0]!;
    if (text !== "") form.set("caption", text);
    form.set(kind, blobOf(media[0]!), media[0]!.filename);
    if (kind === "video") form.set("supports_streaming", "true");
    const method = { photo: "sendPhoto", video: "sendVideo", animation: "sendAnimation" }[kind];
    return { method, params: form };
  }
  // Albums hold photos and videos only: a GIF in one goes as a (still) photo.
  const items = media.map((_, i) => ({
    type: kinds[i] === "animation" ? "photo" : kinds[i],
    media: `attach://file${i}`,
    ...(i === 0 && text !== "" ? { caption: text } : {}),
    ...(kinds[i] === "video" ? { supports_streaming: true } : {}),
  }));
  form.set("media", JSON.stringify(items));
  media.forEach((file, i) => {
    form.set(`file${i}`, blobOf(file), file.filename);
  });
  return { method: "sendMediaGroup", params: form };
}

export async function publishTelegram(
  config: BotApiConfig,
  gate: WaitGate,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const credentials = credentialsOf(account);
  const { method, params } = requestFor(credentials.chat_id, post);
  // The bot's id (the token's part before ':') is not secret, and keeps two bots in one chat apart.
  const gateKey = `${credentials.bot_token.split(":")[0]}:${credentials.chat_id}`;
  const wait = await gate.pass([gateKey], post.signal);
  if (wait > 0) {
    throw new NetworkError(
      "telegram",
      "retry",
      `Telegram asked the bot to wait before posting to this chat again; try again in ${Math.ceil(wait / 1000)} s.`,
      {
        retryAfterMs: wait,
      },
    );
  }
  let result: unknown;
  try {
    result = await callBotApi(config, credentials.bot_token, method, params, post.signal, true);
  } catch (error) {
    if (error instanceof NetworkError && error.kind === "retry" && error.retryAfterMs !== undefined) {
      gate.close(gateKey, error.retryAfterMs);
    }
    throw error;
  }
  const first = (Array.isArray(result) ? result[0] : result) as BotMessage | undefined;
  if (!first || typeof first.message_id !== "number") {
    throw new NetworkError(
      "telegram",
      "unknown",
      `Telegram accepted the ${method} but its answer named no message: check the chat before posting again.`,
    );
  }
  return {
    id: String(first.message_id),
    permalink: telegramPermalink(
      { id: credentials.chat_id, username: credentials.chat_username },
      first.message_id,
    ),
  };
}
