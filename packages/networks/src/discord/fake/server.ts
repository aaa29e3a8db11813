import { createHash, randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { type FakeAnswer, type FakeRequest, formDataOf, startFakeServer } from "../../common/fake-server.ts";
import type { OpenApiCheck } from "../../common/openapi-check.ts";
import { API_PREFIX, discordSpecCheck } from "./spec-check.ts";
import {
  type FakeThread,
  type FakeWebhook,
  messageOf,
  type StoredAttachment,
  type StoredMessage,
  snowflake,
  webhookOf,
} from "./state.ts";

/*
 * A stateful fake of Discord's webhook API (GET and POST /api/v10/webhooks/{id}/{token}) on a loopback
 * port, for tests that cannot reach Discord. It keeps webhooks and the messages they posted, parses
 * JSON and multipart (payload_json + files[n]) bodies, answers Discord's errors, and rate-limits as
 * Discord does: a bucket per webhook with X-RateLimit-* headers, 429 with retry_after in seconds, and a
 * global limit. Every request it accepts and every answer it sends is checked against
 * discord-openapi.json (see specViolations).
 */

const CONTENT_LIMIT = 2000;
const MAX_FILES = 10;
/** A poll: a question of up to 300 characters, 1–10 answers of up to 55, open 1–768 hours. */
const POLL = { question: 300, answers: 10, answer: 55, maxHours: 768 };
/** Webhook uploads: 10 MiB a file. */
const FILE_LIMIT_BYTES = 10 * 1024 * 1024;
/** Discord lets a webhook execute 5 times in 2 seconds. */
const BUCKET = { limit: 5, windowMs: 2000 };

interface Bucket {
  remaining: number;
  resetAt: number;
  /** A forced 429 on this bucket until then (epoch ms). */
  blockedUntil: number;
}

/** A request the fake received, without the webhook token. */
export interface DiscordFakeRequest {
  method: string;
  webhookId: string | null;
  status: number;
  at: number;
}

export interface DiscordFakeOptions {
  /** Check requests and answers against the OpenAPI description (default true). */
  checkSpec?: boolean;
  /** Port to listen on, on 127.0.0.1 (default: any free port). */
  port?: number;
  /** Called with each request once it is answered (for a fake run by hand: see fake-cli.ts). */
  onRequest?: (request: DiscordFakeRequest) => void;
  /**
   * Answers every request this many milliseconds after it arrived, as a network across the internet
   * takes 200–1,000 ms (default 0: at once). Requests wait side by side: what the fake counts in
   * `inFlight` and `peakInFlight` is how many a client kept waiting at once.
   */
  latencyMs?: number;
}

type Answer = { status: number; headers: Record<string, string>; json?: unknown };

const discordError = (status: number, code: number, message: string, errors?: unknown): Answer => ({
  status,
  headers: {},
  json: { code, message, ...(errors ? { errors } : {}) },
});

/**
 * Discord's 50035 with one field's error, as its nested errors object. Discord names each field error
 * with a text code (BASE_TYPE_MAX_LENGTH, …); the description types that code as an integer, and the
 * fake follows the description, so the leaf's code is 50035 and its message says what is wrong.
 */
function invalidField(path: string[], message: string): Answer {
  let errors: Record<string, unknown> = { _errors: [{ code: 50035, message }] };
  for (const key of [...path].reverse()) errors = { [key]: errors };
  return discordError(400, 50035, "Invalid Form Body", errors);
}

export class DiscordFake {
  readonly url: string;
  /** Every way an accepted request or an answer strayed from discord-openapi.json; tests assert it stays empty. */
  readonly specViolations: string[] = [];
  readonly requests: DiscordFakeRequest[] = [];
  /**
   * While set, what every 429 says as `retry_after` instead of the wait left (a test's odd value:
   * negative, zero); the Retry-After header still says the wait.
   */
  saidRetryAfter: number | null = null;
  readonly #webhooks = new Map<string, FakeWebhook>();
  readonly #messages: StoredMessage[] = [];
  readonly #threads = new Map<string, FakeThread>();
  readonly #buckets = new Map<string, Bucket>();
  readonly #close: () => Promise<void>;
  #onRequest: ((request: DiscordFakeRequest) => void) | undefined;
  #inFlight = 0;
  #peakInFlight = 0;
  #globalUntil = 0;

  private constructor(url: string, close: () => Promise<void>) {
    this.url = url;
    this.#close = close;
  }

  /** Starts the fake; loading and compiling the description's validators takes a few seconds. */
  static async start(options: DiscordFakeOptions = {}): Promise<DiscordFake> {
    const check = options.checkSpec === false ? undefined : await discordSpecCheck();
    let fake: DiscordFake | undefined;
    const latencyMs = options.latencyMs ?? 0;
    if (!Number.isFinite(latencyMs) || latencyMs < 0) {
      throw new Error(`latencyMs must be a number of milliseconds, 0 or more; it is ${latencyMs}.`);
    }
    const server = await startFakeServer(
      (request) => fake!.#answerAfter(latencyMs, request, check),
      options.port,
    );
    fake = new DiscordFake(server.url, server.close);
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
    check: OpenApiCheck | undefined,
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

  /** Creates an incoming webhook in a channel, as a server's Integrations settings do; `url` is what a user pastes. */
  addWebhook(options: {
    name: string;
    guildId?: string;
    channelId?: string;
    /** A forum channel's webhook (default false). */
    forum?: boolean;
  }): FakeWebhook & { url: string } {
    const webhook: FakeWebhook = {
      id: snowflake(),
      token: randomBytes(51).toString("base64url").slice(0, 68),
      name: options.name,
      guildId: options.guildId ?? snowflake(),
      channelId: options.channelId ?? snowflake(),
      applicationId: null,
      forum: options.forum ?? false,
    };
    this.#webhooks.set(webhook.id, webhook);
    return { ...webhook, url: `${this.url}/api/webhooks/${webhook.id}/${webhook.token}` };
  }

  /** Deletes a webhook: its URL answers 404 Unknown Webhook from then on. */
  deleteWebhook(id: string): void {
    this.#webhooks.delete(id);
  }

  /** The messages a webhook posted, oldest first. */
  messages(webhookId: string): readonly StoredMessage[] {
    return this.#messages.filter((m) => m.webhookId === webhookId);
  }

  /** The threads webhooks opened in forum channels (thread_name). */
  threads(): readonly FakeThread[] {
    return [...this.#threads.values()];
  }

  /** Rate-limits the webhook's bucket: requests answer 429 for the next `seconds`. */
  rateLimit(webhookId: string, seconds: number): void {
    this.#bucket(webhookId, Date.now()).blockedUntil = Date.now() + seconds * 1000;
  }

  /** Applies the global rate limit: every request answers 429 (global) for the next `seconds`. */
  limitGlobally(seconds: number): void {
    this.#globalUntil = Date.now() + seconds * 1000;
  }

  /** Throws when any request or answer strayed from the OpenAPI description. */
  assertSpecCompliant(): void {
    if (this.specViolations.length > 0) {
      throw new Error(
        `The Discord fake saw traffic that strays from discord-openapi.json:\n${this.specViolations.join("\n")}`,
      );
    }
  }

  #bucket(webhookId: string, now: number): Bucket {
    let bucket = this.#buckets.get(webhookId);
    if (!bucket || bucket.resetAt <= now) {
      bucket = {
        remaining: BUCKET.limit,
        resetAt: now + BUCKET.windowMs,
        blockedUntil: bucket?.blockedUntil ?? 0,
      };
      this.#buckets.set(webhookId, bucket);
    }
    return bucket;
  }

  async #handle(request: FakeRequest, check: OpenApiCheck | undefined): Promise<FakeAnswer> {
    const path = request.url.pathname.startsWith(`${API_PREFIX}/`)
      ? request.url.pathname.slice(API_PREFIX.length)
      : null;
    const match = path ? /^\/webhooks\/(\d+)\/([^/]+)$/.exec(path) : null;
    const webhookId = match?.[1] ?? null;
    let body: unknown;
    let answer: Answer;
    if (!path || !match || (request.method !== "GET" && request.method !== "POST")) {
      answer = discordError(404, 0, "404: Not Found");
    } else {
      const parsed = await this.#parseBody(request);
      body = parsed.body;
      answer =
        parsed.error ??
        this.#limited(match[1]!, request.method) ??
        this.#serve(request, match[1]!, match[2]!, parsed);
    }
    if (check && path && match) {
      const query = Object.fromEntries(request.url.searchParams);
      const headers = Object.fromEntries(request.headers);
      // A request the fake refused (as Discord would) may break the description on purpose.
      if (answer.status < 400) {
        for (const p of check.request({
          method: request.method,
          path,
          query,
          headers,
          ...(body === undefined ? {} : { body }),
        })) {
          this.specViolations.push(p);
        }
      }
      const answerHeaders = Object.fromEntries(
        Object.entries(answer.headers).map(([k, v]) => [k.toLowerCase(), v]),
      );
      for (const p of check.answer(request.method, path, answer.status, answerHeaders, answer.json)) {
        this.specViolations.push(p);
      }
    }
    const seen = { method: request.method, webhookId, status: answer.status, at: Date.now() };
    this.requests.push(seen);
    this.#onRequest?.(seen);
    return answer;
  }

  /** A 429 when the global limit or the webhook's bucket says so; else counts the request in the bucket. */
  #limited(webhookId: string, method: string): Answer | null {
    const now = Date.now();
    if (this.#globalUntil > now) {
      const retryAfter = (this.#globalUntil - now) / 1000;
      return {
        status: 429,
        headers: {
          "Retry-After": String(Math.ceil(retryAfter)),
          "X-RateLimit-Global": "true",
          "X-RateLimit-Scope": "global",
        },
        json: {
          message: "You are being rate limited.",
          retry_after: this.saidRetryAfter ?? retryAfter,
          global: true,
          code: 0,
        },
      };
    }
    if (method !== "POST" || !this.#webhooks.has(webhookId)) return null;
    const bucket = this.#bucket(webhookId, now);
    const until = Math.max(bucket.blockedUntil, bucket.remaining === 0 ? bucket.resetAt : 0);
    if (until > now) {
      const retryAfter = (until - now) / 1000;
      return {
        status: 429,
        headers: {
          ...this.#rateHeaders(webhookId, bucket, now),
          "Retry-After": String(Math.ceil(retryAfter)),
          "X-RateLimit-Scope": "user",
        },
        json: {
          message: "You are being rate limited.",
          retry_after: this.saidRetryAfter ?? retryAfter,
          global: false,
          code: 0,
        },
      };
    }
    bucket.remaining -= 1;
    return null;
  }

  #rateHeaders(webhookId: string, bucket: Bucket, now: number): Record<string, string> {
    return {
      "X-RateLimit-Limit": String(BUCKET.limit),
      "X-RateLimit-Remaining": String(bucket.remaining),
      "X-RateLimit-Reset": ((now + Math.max(0, bucket.resetAt - now)) / 1000).toFixed(3),
      "X-RateLimit-Reset-After": (Math.max(0, bucket.resetAt - now) / 1000).toFixed(3),
      "X-RateLimit-Bucket": createHash("sha1").update(`webhook:${webhookId}`).digest("hex").slice(0, 32),
    };
  }

  #serve(request: FakeRequest, webhookId: string, token: string, parsed: ParsedBody): Answer {
    const webhook = this.#webhooks.get(webhookId);
    if (!webhook) return discordError(404, 10015, "Unknown Webhook");
    if (webhook.token !== token) return discordError(401, 50027, "Invalid Webhook Token");
    const now = Date.now();
    const headers =
      request.method === "POST" ? this.#rateHeaders(webhookId, this.#bucket(webhookId, now), now) : {};
    if (request.method === "GET") return { status: 200, headers, json: webhookOf(webhook, this.url) };
    const refused = validateMessage(parsed);
    if (refused) return { ...refused, headers: { ...headers, ...refused.headers } };
    const payload = (parsed.body ?? {}) as {
      content?: string | null;
      username?: string | null;
      thread_name?: string | null;
      poll?: PollRequest | null;
      attachments?: { id: string | number; description?: string }[];
    };
    const where = this.#channelFor(
      webhook,
      payload.thread_name ?? null,
      request.url.searchParams.get("thread_id"),
    );
    if ("status" in where) return { ...where, headers: { ...headers, ...where.headers } };
    const message: StoredMessage = {
      id: snowflake(now),
      webhookId,
      channelId: where.channelId,
      content: payload.content ?? "",
      username: payload.username ?? webhook.name,
      attachments: parsed.files.map(({ index, file }): StoredAttachment => {
        const meta = payload.attachments?.find((a) => String(a.id) === index);
        return {
          id: snowflake(now),
          filename: file.name,
          size: file.size,
          contentType: file.type || "application/octet-stream",
          ...(meta?.description !== undefined ? { description: meta.description } : {}),
        };
      }),
      timestamp: new Date(now).toISOString().replace("Z", "+00:00"),
      ...(payload.poll
        ? {
            poll: {
              question: payload.poll.question?.text ?? "",
              answers: payload.poll.answers.map((a) => a.poll_media?.text ?? ""),
              hours: payload.poll.duration ?? 24,
              multiselect: payload.poll.allow_multiselect ?? false,
            },
          }
        : {}),
    };
    if (where.open) this.#threads.set(where.open.id, where.open);
    this.#messages.push(message);
    if (request.url.searchParams.get("wait") !== "true") return { status: 204, headers };
    return { status: 200, headers, json: messageOf(webhook, message, this.url) };
  }

  /**
   * The channel a message goes to, as Discord routes a webhook's message: its channel; in a forum
   * channel, a new thread (thread_name) or an existing one (thread_id), one of the two and not both;
   * thread_name anywhere else is refused.
   */
  #channelFor(
    webhook: FakeWebhook,
    threadName: string | null,
    threadId: string | null,
  ): { channelId: string; open?: FakeThread } | Answer {
    if (threadName !== null && threadId !== null) {
      return discordError(
        400,
        220002,
        "Webhooks posted to forum channels cannot have both a thread_name and thread_id",
      );
    }
    if (threadId !== null) {
      const thread = this.#threads.get(threadId);
      if (!thread || thread.parentId !== webhook.channelId)
        return discordError(400, 10003, "Unknown Channel");
      return { channelId: thread.id };
    }
    if (threadName !== null) {
      if (!webhook.forum)
        return discordError(400, 220003, "Webhooks can only create threads in forum channels");
      if (threadName.trim() === "") return invalidField(["thread_name"], "This field is required");
      const id = snowflake();
      return { channelId: id, open: { id, name: threadName, parentId: webhook.channelId } };
    }
    if (webhook.forum) {
      return discordError(
        400,
        220001,
        "Webhooks posted to forum channels must have a thread_name or thread_id",
      );
    }
    return { channelId: webhook.channelId };
  }

  async #parseBody(request: FakeRequest): Promise<ParsedBody & { error?: Answer }> {
    const type = request.headers.get("content-type") ?? "";
    if (request.method !== "POST") return { files: [] };
    if (type.startsWith("application/json")) {
      try {
        return { body: JSON.parse(new TextDecoder().decode(request.body)), files: [] };
      } catch {
        return { files: [], error: discordError(400, 50109, "The request body contains invalid JSON.") };
      }
    }
    if (type.startsWith("multipart/form-data")) {
      const form = await formDataOf(request);
      const files: ParsedBody["files"] = [];
      let body: unknown;
      for (const [name, value] of form) {
        if (name === "payload_json" && typeof value === "string") {
          try {
            body = JSON.parse(value);
          } catch {
            return { files: [], error: discordError(400, 50109, "The request body contains invalid JSON.") };
          }
        } else if (typeof value !== "string") {
          const index = /^files\[(\d+)\]$/.exec(name)?.[1];
          if (index === undefined)
            return { files: [], error: invalidField([name], "Not a known file field.") };
          files.push({ index, file: value });
        }
      }
      return { body, files };
    }
    return {
      files: [],
      error: discordError(400, 50035, "Invalid Form Body", {
        _errors: [
          {
            code: 50035,
            message: `Expected "Content-Type" header to be one of {'application/json', 'multipart/form-data'}.`,
          },
        ],
      }),
    };
  }
}

interface PollRequest {
  question?: { text?: string | null };
  answers: { poll_media?: { text?: string | null } }[];
  duration?: number | null;
  allow_multiselect?: boolean | null;
}

interface ParsedBody {
  body?: unknown;
  files: { index: string; file: File }[];
}

/** Discord's answers to a message it will not post: a field too long, nothing to post, files too many or too large. */
function validateMessage(parsed: ParsedBody): Answer | null {
  const payload = (parsed.body ?? {}) as {
    content?: unknown;
    embeds?: unknown[];
    attachments?: { id: unknown }[];
    poll?: unknown;
  };
  const content = typeof payload.content === "string" ? payload.content : "";
  if ([...content].length > CONTENT_LIMIT) {
    return invalidField(["content"], `Must be ${CONTENT_LIMIT} or fewer in length.`);
  }
  if (parsed.files.length > MAX_FILES) {
    return invalidField(["files"], `Must be ${MAX_FILES} or fewer in length.`);
  }
  for (const { file } of parsed.files) {
    if (file.size > FILE_LIMIT_BYTES) return discordError(413, 40005, "Request entity too large");
  }
  for (const [i, attachment] of (payload.attachments ?? []).entries()) {
    if (!parsed.files.some((f) => f.index === String(attachment.id))) {
      return invalidField(
        ["attachments", String(i), "id"],
        "Unknown attachment: no file was uploaded with this id.",
      );
    }
  }
  if (payload.poll !== undefined && payload.poll !== null) {
    const poll = payload.poll as Partial<PollRequest>;
    const question = poll.question?.text ?? "";
    if (question.trim() === "") {
      return invalidField(["poll", "question", "text"], "This field is required");
    }
    if ([...question].length > POLL.question) {
      return invalidField(["poll", "question", "text"], `Must be ${POLL.question} or fewer in length.`);
    }
    const answers = Array.isArray(poll.answers) ? poll.answers : [];
    if (answers.length === 0 || answers.length > POLL.answers) {
      return invalidField(["poll", "answers"], `Must be between 1 and ${POLL.answers} in length.`);
    }
    for (const [i, answer] of answers.entries()) {
      const text = answer?.poll_media?.text ?? "";
      if (text.trim() === "" || [...text].length > POLL.answer) {
        return invalidField(
          ["poll", "answers", String(i), "poll_media", "text"],
          `Must be between 1 and ${POLL.answer} in length.`,
        );
      }
    }
    const hours = poll.duration;
    if (
      hours !== undefined &&
      hours !== null &&
      (!Number.isInteger(hours) || hours < 1 || hours > POLL.maxHours)
    ) {
      return invalidField(["poll", "duration"], `Must be between 1 and ${POLL.maxHours}.`);
    }
  }
  const hasPoll = payload.poll !== undefined && payload.poll !== null;
  if (content.trim() === "" && parsed.files.length === 0 && (payload.embeds?.length ?? 0) === 0 && !hasPoll) {
    return discordError(400, 50006, "Cannot send an empty message");
  }
  return null;
}
