import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { type FakeAnswer, type FakeRequest, formDataOf, startFakeServer } from "../../common/fake-server.ts";
import { TelegramSpecCheck } from "./spec-check.ts";
import {
  type ChatType,
  chatFullInfoOf,
  chatMemberOf,
  type FakeBot,
  type FakeChat,
  type MemberStatus,
  messageOf,
  type StoredFile,
  type StoredMessage,
  type StoredPoll,
  userOf,
} from "./state.ts";

/*
 * A stateful fake of the Telegram Bot API (https://api.telegram.org/bot{token}/{method}) on a loopback
 * port, for tests that cannot reach Telegram. It keeps bots, chats and the bots' rights in them, and
 * the messages sent; it answers as Telegram documents, errors and flood waits included, and checks
 * every request and answer against telegram-bot-api.json (see specViolations).
 */

const CAPTION_LIMIT = 1024;
const TEXT_LIMIT = 4096;
const PHOTO_LIMIT_BYTES = 10 * 1024 * 1024;
const UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;
/** sendPoll's bounds, as the Bot API documents them. */
const POLL_QUESTION_LIMIT = 300;
const POLL_OPTION_LIMIT = 100;
const POLL_MAX_OPTIONS = 12;
const POLL_MAX_OPEN_PERIOD = 2_628_000;
/** Bots may send at most 20 messages a minute to one group. */
const GROUP_MESSAGES_PER_MINUTE = 20;

type Answer = { status: number; json: Record<string, unknown> };

class BotApiError extends Error {
  readonly code: number;
  readonly retryAfter: number | undefined;
  constructor(code: number, description: string, retryAfter?: number) {
    super(description);
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

const badRequest = (what: string) => new BotApiError(400, `Bad Request: ${what}`);
const forbidden = (what: string) => new BotApiError(403, `Forbidden: ${what}`);

/** A request the fake received, without the bot token. */
export interface TelegramFakeRequest {
  method: string;
  botId: number | null;
  status: number;
  at: number;
}

let sharedCheck: TelegramSpecCheck | undefined;

export interface TelegramFakeOptions {
  /** Check requests and answers against the Bot API description (default true). */
  checkSpec?: boolean;
  /** Port to listen on, on 127.0.0.1 (default: any free port). */
  port?: number;
  /** Called with each request once it is answered (for a fake run by hand: see fake-cli.ts). */
  onRequest?: (request: TelegramFakeRequest) => void;
  /**
   * Answers every request this many milliseconds after it arrived, as a network across the internet
   * takes 200–1,000 ms (default 0: at once). Requests wait side by side: what the fake counts in
   * `inFlight` and `peakInFlight` is how many a client kept waiting at once.
   */
  latencyMs?: number;
}

export class TelegramFake {
  readonly url: string;
  /** Every way a request or an answer strayed from telegram-bot-api.json; tests assert it stays empty. */
  readonly specViolations: string[] = [];
  readonly requests: TelegramFakeRequest[] = [];
  readonly #bots = new Map<string, FakeBot>();
  readonly #chats = new Map<number, FakeChat>();
  readonly #close: () => Promise<void>;
  #onRequest: ((request: TelegramFakeRequest) => void) | undefined;
  #inFlight = 0;
  #peakInFlight = 0;
  #nextChat = 1_000_000_001;
  #nextBot = 7_000_000_001;
  #nextGroup = 1;
  #nextPoll = 5_000_000_001;

  private constructor(url: string, close: () => Promise<void>) {
    this.url = url;
    this.#close = close;
  }

  static async start(options: TelegramFakeOptions = {}): Promise<TelegramFake> {
    if (options.checkSpec !== false) sharedCheck ??= TelegramSpecCheck.load();
    const check = options.checkSpec === false ? undefined : sharedCheck;
    let fake: TelegramFake | undefined;
    const latencyMs = options.latencyMs ?? 0;
    if (!Number.isFinite(latencyMs) || latencyMs < 0) {
      throw new Error(`latencyMs must be a number of milliseconds, 0 or more; it is ${latencyMs}.`);
    }
    const server = await startFakeServer(
      (request) => fake!.#answerAfter(latencyMs, request, check),
      options.port,
    );
    fake = new TelegramFake(server.url, server.close);
    fake.#onRequest = options.onRequest;
    return fake;
  }

  close(): Promise<void> {
    return this.#close();
  }

  /** Requests received and not yet answered. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** The most requests ever received and not yet answered at one moment. */
  get peakInFlight(): number {
    return this.#peakInFlight;
  }

  async #answerAfter(
    latencyMs: number,
    request: FakeRequest,
    check: TelegramSpecCheck | undefined,
  ): Promise<FakeAnswer> {
    this.#inFlight += 1;
    this.#peakInFlight = Math.max(this.#peakInFlight, this.#inFlight);
    try {
      if (latencyMs > 0) await delay(latencyMs);
      return await this.#handle(request, check);
    } finally {
      this.#inFlight -= 1;
    }
  }

  /** Creates a bot, as @BotFather does; its token is what a user pastes. */
  addBot(options: { username: string; firstName?: string }): { id: number; token: string } {
    const id = this.#nextBot++;
    const token = `${id}:${randomBytes(26).toString("base64url").slice(0, 35)}`;
    this.#bots.set(token, {
      id,
      token,
      username: options.username,
      firstName: options.firstName ?? options.username,
    });
    return { id, token };
  }

  /** Revokes a bot's token (as /revoke in @BotFather does): it answers 401 from then on. */
  revokeToken(token: string): void {
    this.#bots.delete(token);
  }

  /**
   * Creates a chat. Channels and supergroups get ids of the form -100…, basic groups plain negative ids.
   * A chat with a username is public (t.me/username).
   */
  addChat(options: { type: ChatType; title: string; username?: string; memberCount?: number }): {
    id: number;
  } {
    const n = this.#nextChat++;
    // Basic groups have short negative ids; channels and supergroups -100 followed by ten digits.
    const id =
      options.type === "private"
        ? n
        : options.type === "group"
          ? -(n % 1_000_000_000) - 4_000_000
          : -(1_000_000_000_000 + n);
    this.#chats.set(id, {
      id,
      type: options.type,
      title: options.title,
      ...(options.username ? { username: options.username } : {}),
      memberCount: options.memberCount ?? 1,
      members: new Map(),
      messages: [],
      floodUntil: 0,
      recentSends: [],
    });
    return { id };
  }

  /**
   * A public channel and a bot allowed to post in it, as a person sets them up before connecting the
   * channel: the bot made by @BotFather, then made the channel's administrator with the right to post.
   */
  addChannelWithBot(options: {
    bot: { username: string; firstName?: string };
    title: string;
    username: string;
    memberCount?: number;
  }): { bot: { id: number; token: string }; chat: { id: number } } {
    const bot = this.addBot(options.bot);
    const { title, username, memberCount } = options;
    const chat = this.addChat({
      type: "channel",
      title,
      username,
      ...(memberCount !== undefined && { memberCount }),
    });
    this.setMember(chat.id, bot.id, "administrator", { canPost: true });
    return { bot, chat };
  }

  /** Sets a bot's status in a chat; `canPost` is a channel administrator's right to post messages. */
  setMember(chatId: number, botId: number, status: MemberStatus, options: { canPost?: boolean } = {}): void {
    this.#chat(chatId).members.set(botId, { status, canPost: options.canPost ?? true });
  }

  /** Makes sends to the chat answer 429 with retry_after for the next `seconds`. */
  /** Changes what getChatMemberCount answers for the chat (people joined or left). */
  setMemberCount(chatId: number, count: number): void {
    this.#chat(chatId).memberCount = count;
  }

  floodWait(chatId: number, seconds: number): void {
    this.#chat(chatId).floodUntil = Date.now() + seconds * 1000;
  }

  messages(chatId: number): readonly StoredMessage[] {
    return this.#chat(chatId).messages;
  }

  /** Throws when any request or answer strayed from the Bot API description. */
  assertSpecCompliant(): void {
    if (this.specViolations.length > 0) {
      throw new Error(
        `The Telegram fake saw traffic that strays from telegram-bot-api.json:\n${this.specViolations.join("\n")}`,
      );
    }
  }

  #chat(id: number): FakeChat {
    const chat = this.#chats.get(id);
    if (!chat) throw new Error(`no chat ${id} in the Telegram fake`);
    return chat;
  }

  async #handle(request: FakeRequest, check: TelegramSpecCheck | undefined): Promise<FakeAnswer> {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(request.url.pathname);
    const method = match?.[2] ?? "(none)";
    const bot = match ? this.#bots.get(decodeURIComponent(match[1]!)) : undefined;
    let answer: Answer;
    try {
      if (!match || !/^\d+:[\w-]+$/.test(decodeURIComponent(match[1]!)))
        throw new BotApiError(404, "Not Found");
      const { params, files, form } = await readParams(request);
      for (const p of check?.request(method, params, new Set(files.keys()), form) ?? []) {
        this.specViolations.push(`request ${p}`);
      }
      if (!bot) throw new BotApiError(401, "Unauthorized");
      answer = { status: 200, json: { ok: true, result: this.#call(bot, method, params, files) } };
    } catch (error) {
      if (!(error instanceof BotApiError)) throw error;
      answer = {
        status: error.code,
        json: {
          ok: false,
          error_code: error.code,
          description: error.message,
          ...(error.retryAfter !== undefined ? { parameters: { retry_after: error.retryAfter } } : {}),
        },
      };
    }
    if (check && method !== "(none)") {
      for (const p of check.answer(method, answer.json)) this.specViolations.push(`answer ${p}`);
    }
    const seen = { method, botId: bot?.id ?? null, status: answer.status, at: Date.now() };
    this.requests.push(seen);
    this.#onRequest?.(seen);
    return answer;
  }

  #call(bot: FakeBot, method: string, params: Params, files: Map<string, File>): unknown {
    switch (method) {
      case "getMe":
        return userOf(bot);
      case "getChat":
        return chatFullInfoOf(this.#visibleChat(bot, params.chat_id));
      case "getChatMemberCount":
        return this.#visibleChat(bot, params.chat_id).memberCount;
      case "getChatMember": {
        const chat = this.#visibleChat(bot, params.chat_id);
        if (Number(params.user_id) !== bot.id) throw badRequest("user not found");
        return chatMemberOf(chat, bot);
      }
      case "sendMessage": {
        const chat = this.#sendableChat(bot, params.chat_id);
        const text = String(params.text ?? "");
        if (text.trim() === "") throw badRequest("message text is empty");
        if ([...text].length > TEXT_LIMIT) throw badRequest("message is too long");
        return this.#sent(chat, bot, this.#store(chat, { text, ...extrasOf(chat, params) }));
      }
      case "sendPhoto":
      case "sendVideo":
      case "sendAnimation": {
        const chat = this.#sendableChat(bot, params.chat_id);
        const kind = method === "sendPhoto" ? "photo" : method === "sendVideo" ? "video" : "animation";
        const caption = captionOf(params.caption);
        const file = fileOf(params[kind], files, kind, files.get(kind));
        return this.#sent(chat, bot, this.#store(chat, { caption, file, ...extrasOf(chat, params) }));
      }
      case "sendMediaGroup": {
        const chat = this.#sendableChat(bot, params.chat_id);
        const media = parseMaybe(params.media);
        if (!Array.isArray(media) || media.length < 2 || media.length > 10) {
          throw badRequest("media group must contain 2-10 items");
        }
        const items = media.map((item: Record<string, unknown>) => {
          if (item.type !== "photo" && item.type !== "video")
            throw badRequest(`unsupported media type ${item.type}`);
          return { caption: captionOf(item.caption), file: fileOf(item.media, files, item.type) };
        });
        const extras = extrasOf(chat, params);
        const group = String(this.#nextGroup++);
        this.#pace(chat, items.length);
        // Every message of the album replies to the same message, as Telegram sends it.
        return items.map((item) =>
          this.#sent(chat, bot, this.#store(chat, { ...item, ...extras, mediaGroupId: group }, false)),
        );
      }
      case "sendPoll": {
        const chat = this.#sendableChat(bot, params.chat_id);
        const poll = pollOf(chat, params, String(this.#nextPoll++));
        return this.#sent(chat, bot, this.#store(chat, { poll, ...extrasOf(chat, params) }));
      }
      default:
        throw new BotApiError(404, "Not Found");
    }
  }

  /** A chat the bot may read: public chats by anyone, private ones by members only. */
  #visibleChat(bot: FakeBot, chatId: unknown): FakeChat {
    const chat = this.#find(chatId);
    const status = chat?.members.get(bot.id)?.status;
    const member = status !== undefined && status !== "left" && status !== "kicked";
    if (!chat || (!chat.username && !member)) throw badRequest("chat not found");
    return chat;
  }

  /** A chat the bot may post in, or the error Telegram gives for it. */
  #sendableChat(bot: FakeBot, chatId: unknown): FakeChat {
    const chat = this.#visibleChat(bot, chatId);
    const m = chat.members.get(bot.id);
    const kind = chat.type === "channel" ? "channel" : chat.type === "private" ? "user" : chat.type;
    if (!m || m.status === "left") throw forbidden(`bot is not a member of the ${kind} chat`);
    if (m.status === "kicked") throw forbidden(`bot was kicked from the ${kind} chat`);
    if (chat.type === "channel" && !(m.status === "creator" || (m.status === "administrator" && m.canPost))) {
      throw badRequest("need administrator rights in the channel chat");
    }
    if (m.status === "restricted") throw badRequest("not enough rights to send text messages to the chat");
    return chat;
  }

  #find(chatId: unknown): FakeChat | undefined {
    const text = String(chatId ?? "");
    if (/^-?\d+$/.test(text)) return this.#chats.get(Number(text));
    if (!text.startsWith("@")) return undefined;
    const name = text.slice(1).toLowerCase();
    return [...this.#chats.values()].find((c) => c.username?.toLowerCase() === name);
  }

  /** Flood control: a chat under a flood wait, or a group past 20 messages a minute, answers 429. */
  #pace(chat: FakeChat, count: number): void {
    const now = Date.now();
    if (chat.floodUntil > now) {
      const seconds = Math.ceil((chat.floodUntil - now) / 1000);
      throw new BotApiError(429, `Too Many Requests: retry after ${seconds}`, seconds);
    }
    if (chat.type !== "group" && chat.type !== "supergroup") return;
    chat.recentSends = chat.recentSends.filter((t) => t > now - 60_000);
    if (chat.recentSends.length + count > GROUP_MESSAGES_PER_MINUTE) {
      const seconds = Math.ceil((chat.recentSends[0]! + 60_000 - now) / 1000);
      throw new BotApiError(429, `Too Many Requests: retry after ${seconds}`, seconds);
    }
    for (let i = 0; i < count; i++) chat.recentSends.push(now);
  }

  /** A sent message as the Bot API answers it, with the message it replies to. */
  #sent(chat: FakeChat, bot: FakeBot, message: StoredMessage): Record<string, unknown> {
    const replied = message.replyTo === undefined ? undefined : chat.messages[message.replyTo - 1];
    return messageOf(chat, bot, message, replied);
  }

  #store(chat: FakeChat, message: Omit<StoredMessage, "messageId" | "date">, pace = true): StoredMessage {
    // A reply to a message the chat does not have is refused, as Telegram does.
    if (message.replyTo !== undefined && !chat.messages[message.replyTo - 1]) {
      throw badRequest("message to be replied not found");
    }
    if (pace) this.#pace(chat, 1);
    const stored = { messageId: chat.messages.length + 1, date: Math.floor(Date.now() / 1000), ...message };
    chat.messages.push(stored);
    return stored;
  }
}

type Params = Record<string, unknown>;

/** Parameters from the query string and the body (JSON, urlencoded or multipart), and uploaded files. */
async function readParams(
  request: FakeRequest,
): Promise<{ params: Params; files: Map<string, File>; form: boolean }> {
  const params: Params = Object.fromEntries(request.url.searchParams);
  const files = new Map<string, File>();
  const type = request.headers.get("content-type") ?? "";
  if (request.body.length === 0) return { params, files, form: true };
  if (type.startsWith("application/json")) {
    const body = JSON.parse(new TextDecoder().decode(request.body)) as unknown;
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw badRequest("invalid JSON body");
    return { params: { ...params, ...body }, files, form: false };
  }
  if (type.startsWith("multipart/form-data") || type.startsWith("application/x-www-form-urlencoded")) {
    for (const [name, value] of await formDataOf(request)) {
      if (typeof value === "string") params[name] = value;
      else files.set(name, value);
    }
    return { params, files, form: true };
  }
  throw badRequest(`unsupported content type ${type}`);
}

function parseMaybe(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    throw badRequest("can't parse media JSON object");
  }
}

/** What any send may carry besides its content: the message it replies to, and how it is delivered. */
function extrasOf(chat: FakeChat, params: Params): Pick<StoredMessage, "replyTo" | "silent" | "protected"> {
  const reply = params.reply_parameters === undefined ? undefined : parseMaybe(params.reply_parameters);
  let replyTo: number | undefined;
  if (reply !== undefined) {
    const id = (reply as { message_id?: unknown } | null)?.message_id;
    if (!Number.isInteger(id)) throw badRequest("invalid reply parameters specified");
    const withoutReply = (reply as { allow_sending_without_reply?: unknown }).allow_sending_without_reply;
    // Sent without the reply when the message is gone and the sender allowed it.
    if (chat.messages[(id as number) - 1] || withoutReply !== true) replyTo = id as number;
  }
  return {
    ...(replyTo !== undefined ? { replyTo } : {}),
    ...(flag(params.disable_notification) ? { silent: true } : {}),
    ...(flag(params.protect_content) ? { protected: true } : {}),
  };
}

const flag = (value: unknown) => value === true || value === "true";

/** A poll as sendPoll documents it: a question of 1–300 characters, 1–12 options of 1–100, open_period 5–2,628,000 s. */
function pollOf(chat: FakeChat, params: Params, id: string): StoredPoll {
  const question = String(params.question ?? "");
  if (question.trim() === "") throw badRequest("poll question must be non-empty");
  if ([...question].length > POLL_QUESTION_LIMIT)
    throw badRequest("poll question length must not exceed 300");
  const options = parseMaybe(params.options);
  if (!Array.isArray(options) || options.length === 0) throw badRequest("poll must have at least 1 option");
  if (options.length > POLL_MAX_OPTIONS) throw badRequest("poll can't have more than 12 options");
  const texts = options.map((option: unknown) => {
    const text = typeof option === "string" ? option : String((option as { text?: unknown })?.text ?? "");
    if (text.trim() === "" || [...text].length > POLL_OPTION_LIMIT) {
      throw badRequest("poll options length must not exceed 100");
    }
    return text;
  });
  const isAnonymous = params.is_anonymous === undefined ? true : flag(params.is_anonymous);
  if (!isAnonymous && chat.type === "channel") {
    throw badRequest("non-anonymous polls can't be sent to channel chats");
  }
  let openPeriod: number | undefined;
  if (params.open_period !== undefined) {
    openPeriod = Number(params.open_period);
    if (!Number.isInteger(openPeriod) || openPeriod < 5 || openPeriod > POLL_MAX_OPEN_PERIOD) {
      throw badRequest("wrong open period specified");
    }
  }
  return { id, question, options: texts, isAnonymous, ...(openPeriod !== undefined ? { openPeriod } : {}) };
}

function captionOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const caption = String(value);
  if ([...caption].length > CAPTION_LIMIT) throw badRequest("message caption is too long");
  return caption;
}

/** The file a photo/video parameter names: an uploaded part (directly or via attach://), a URL or a file_id. */
function fileOf(value: unknown, files: Map<string, File>, kind: StoredFile["kind"], part?: File): StoredFile {
  if (!part && typeof value === "string" && value.startsWith("attach://")) part = files.get(value.slice(9));
  if (part) {
    if (part.size === 0) throw badRequest(`file must be non-empty`);
    if (part.size > UPLOAD_LIMIT_BYTES) throw new BotApiError(413, "Request Entity Too Large");
    if (kind === "photo" && part.size > PHOTO_LIMIT_BYTES) throw badRequest("PHOTO_INVALID_DIMENSIONS");
    return { name: part.name, contentType: part.type || "application/octet-stream", size: part.size, kind };
  }
  if (typeof value === "string" && value.startsWith("attach://"))
    throw badRequest(`file ${value} not found in the request`);
  if (typeof value === "string" && value !== "") return { name: value, contentType: "", size: 0, kind };
  throw badRequest(`there is no ${kind} in the request`);
}
