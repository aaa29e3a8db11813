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
import { type BotApiConfig, type BotApiParams, callBotApi } from "./bot-api.ts";
import { telegramPermalink } from "./permalink.ts";
import type { BotMessage, TelegramCredentials } from "./types.ts";

/*
 * One message = one Bot API call: text alone → sendMessage; one photo, video or GIF → sendPhoto /
 * sendVideo / sendAnimation with the text as its caption; 2–10 → sendMediaGroup (an album; the caption
 * rides on the first item); a poll → sendPoll, the text as its question. Files are uploaded as
 * multipart parts. The Bot API has no idempotency key, so the post's key is not sent; a send that got
 * no answer is reported as `unknown`.
 *
 * A rich post (a thread, a first comment) goes out through publishThread, message by message: each
 * part replies to the one before (reply_parameters), the first comment replies to the first part.
 * options.telegram `silent` (disable_notification) and `protect_content` apply to every message.
 */

export const MAX_ALBUM = 10;
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** A poll's question: 1–300 characters (sendPoll). */
export const MAX_POLL_QUESTION = 300;
/** open_period: 5 to 2,628,000 seconds (sendPoll). */
const MIN_OPEN_PERIOD_S = 5;
const MAX_OPEN_PERIOD_S = 2_628_000;

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

/** What every message of the post carries besides its content: the options, and the message it replies to. */
interface Extras {
  silent: boolean;
  protect: boolean;
  replyTo: number | null;
}

/** options.telegram, as checked by the contract: `silent` and `protect_content`. */
function extrasOf(post: PublishInput): Omit<Extras, "replyTo"> {
  const options = (post.options ?? {}) as { silent?: unknown; protect_content?: unknown };
  return { silent: options.silent === true, protect: options.protect_content === true };
}

/** The extras as Bot API parameters: typed values for a JSON body, text for a form. */
function extraParams(extras: Extras): Record<string, unknown> {
  return {
    ...(extras.silent ? { disable_notification: true } : {}),
    ...(extras.protect ? { protect_content: true } : {}),
    ...(extras.replyTo !== null ? { reply_parameters: { message_id: extras.replyTo } } : {}),
  };
}

function setExtras(form: FormData, extras: Extras): void {
  for (const [name, value] of Object.entries(extraParams(extras))) {
    form.set(name, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
}

/** Refuses, before anything is sent, a message Telegram could not take: too many files, or a kind it does not. */
function checkMedia(media: readonly MediaFile[], where: string): void {
  if (media.length > MAX_ALBUM) {
    throw refused(
      `Telegram albums hold at most ${MAX_ALBUM} photos or videos; ${where} has ${media.length}.`,
    );
  }
  for (const file of media) kindOf(file);
}

/** The method and parameters for one message of text and media. */
function requestFor(
  chatId: number,
  text: string,
  media: readonly MediaFile[],
  extras: Extras,
): { method: string; params: BotApiParams } {
  if (media.length === 0) {
    if (text.trim() === "") throw refused("A Telegram message needs text or media.");
    return { method: "sendMessage", params: { chat_id: chatId, text, ...extraParams(extras) } };
  }
  checkMedia(media, "this message");
  const kinds = media.map(kindOf);
  const form = new FormData();
  form.set("chat_id", String(chatId));
  setExtras(form, extras);
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

/** sendPoll: the question, the options, and open_period when the post gave a duration. */
function pollRequest(chatId: number, question: string, poll: PollInput, extras: Extras): BotApiParams {
  const seconds = poll.durationMinutes === null ? null : poll.durationMinutes * 60;
  return {
    chat_id: chatId,
    question,
    options: poll.options.map((text) => ({ text })),
    // Anonymous, as Telegram's default and the only kind a channel takes.
    ...(seconds !== null && seconds >= MIN_OPEN_PERIOD_S && seconds <= MAX_OPEN_PERIOD_S
      ? { open_period: seconds }
      : {}),
    ...extraParams(extras),
  };
}

/** The message a later message replies to: a part's own id, or its last message's (the poll after its text). */
function replyTarget(part: SentPart): number {
  if (part.ref) {
    const ref = JSON.parse(part.ref) as { last?: unknown };
    if (typeof ref.last === "number") return ref.last;
  }
  return Number(part.id);
}

/** The own step of a poll part whose text went first as its own message: that message's id. */
const POLL_LEAD = "poll_lead";

export async function publishTelegram(
  config: BotApiConfig,
  gate: WaitGate,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const credentials = credentialsOf(account);
  const chat = { id: credentials.chat_id, username: credentials.chat_username };
  const base = extrasOf(post);
  const thread = post.thread ?? [];
  const poll = post.poll ?? null;
  // Nothing goes out when any message of the post could not: each part is checked before the first.
  if (poll && post.media.length > 0) {
    throw refused(
      "A Telegram poll is a message of its own and carries no media: remove the media or the poll.",
    );
  }
  if (poll && post.text.trim() === "") {
    throw refused("A Telegram poll needs a question: the post's text is its question.");
  }
  checkMedia(post.media, "this post");
  thread.forEach((part, i) => {
    checkMedia(part.media, `part ${i + 2}`);
  });

  // The bot's id (the token's part before ':') is not secret, and keeps two bots in one chat apart.
  const gateKey = `${credentials.bot_token.split(":")[0]}:${credentials.chat_id}`;
  const call = async (method: string, params: BotApiParams): Promise<BotMessage> => {
    const wait = await gate.pass([gateKey], post.signal);
    if (wait > 0) {
      throw new NetworkError(
        "telegram",
        "retry",
        `Telegram asked the bot to wait before posting to this chat again; try again in ${Math.ceil(wait / 1000)} s.`,
        { retryAfterMs: wait },
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
    return first;
  };
  const sent = (message: number, last?: number): SentPart => ({
    id: String(message),
    permalink: telegramPermalink(chat, message),
    ...(last !== undefined && last !== message ? { ref: JSON.stringify({ last }) } : {}),
  });

  const sendPoll = async (part: PartToSend, extras: Extras): Promise<SentPart> => {
    const text = part.text.trim();
    if ([...text].length <= MAX_POLL_QUESTION) {
      return sent((await call("sendPoll", pollRequest(chat.id, text, poll!, extras))).message_id);
    }
    // Longer than a question: the text goes first, and the poll replies to it. The text's message is
    // saved before the poll is sent, so a retry after the poll failed sends the poll only.
    let lead = part.step?.[POLL_LEAD];
    if (typeof lead !== "number") {
      const { method, params } = requestFor(chat.id, part.text, [], extras);
      lead = (await call(method, params)).message_id;
      await part.saveStep({ [POLL_LEAD]: lead });
    }
    const question = pollQuestion(text, MAX_POLL_QUESTION);
    const message = await call(
      "sendPoll",
      pollRequest(chat.id, question, poll!, { ...extras, replyTo: lead }),
    );
    return sent(lead, message.message_id);
  };

  const send = async (part: PartToSend, parent: SentPart | null): Promise<SentPart> => {
    const extras: Extras = { ...base, replyTo: parent ? replyTarget(parent) : null };
    if (part.index === 0 && poll) return sendPoll(part, extras);
    const { method, params } = requestFor(chat.id, part.text, part.media, extras);
    return sent((await call(method, params)).message_id);
  };

  // One message and nothing after it: a single send, as a post has always been.
  if (
    thread.length === 0 &&
    !post.firstComment &&
    !(poll && [...post.text.trim()].length > MAX_POLL_QUESTION)
  ) {
    const one = await send(
      {
        index: 0,
        count: 1,
        text: post.text,
        media: post.media,
        step: null,
        saveStep: async () => {},
      },
      null,
    );
    return { id: one.id, permalink: one.permalink };
  }
  return publishThread("telegram", post, {
    send,
    // Bots cannot read a chat's history, so there is no `find`: a part whose answer never came fails
    // as "outcome unknown" rather than being sent twice.
    comment: async (text, root) => {
      const { method, params } = requestFor(chat.id, text, [], { ...base, replyTo: Number(root.id) });
      return sent((await call(method, params)).message_id);
    },
  });
}
