import type { Dispatcher } from "undici";
import type { z } from "zod";
import { Analytics, CurrentUser, Post } from "../contract/resources.ts";
import { createFetchTransport } from "./fetch-transport.ts";
import {
  type ApiRequest,
  type ApiResponse,
  createRequester,
  type Requester,
  type RequestOptions,
} from "./requester.ts";
import { AccountsResource } from "./resources/accounts.ts";
import { KeysResource } from "./resources/keys.ts";
import { MediaResource } from "./resources/media.ts";
import { PostsResource, type ScheduleInput } from "./resources/posts.ts";
import { WebhooksResource } from "./resources/webhooks.ts";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.ts";
import type { FetchLike } from "./transport.ts";
import { createKeepAliveAgent, createUndiciTransport } from "./undici-transport.ts";
import { CLIENT_VERSION } from "./version.ts";

/** The reference server's address when started with its defaults. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787/api/v1";
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface SocialPublishClientOptions {
  /** sp_test_… or sp_live_…; sent as a bearer credential and never put in an error. */
  apiKey: string;
  /** Including the version segment, e.g. https://example.com/api/v1. Default: the local reference server. */
  baseUrl?: string | URL;
  /** Retries after the first attempt, on 429, 5xx and connection failures only. Default 2. */
  maxRetries?: number;
  /** Time allowed for each attempt, in ms. Default 30 000. */
  timeoutMs?: number;
  /** Backoff tuning: first delay, largest delay, and the longest Retry-After the client will wait for. */
  retry?: Partial<Omit<RetryPolicy, "maxRetries">>;
  /**
   * Send requests through this fetch instead of undici — for example `createService(…).fetch`, which
   * runs the service in-process with no network.
   */
  fetch?: FetchLike;
  /** An undici dispatcher (Agent, Pool, MockAgent, ProxyAgent) to use instead of the client's own. */
  dispatcher?: Dispatcher;
}

/** The typed client: one method per endpoint, responses validated against the contract's schemas. */
export class SocialPublishClient {
  readonly posts: PostsResource;
  readonly accounts: AccountsResource;
  readonly webhooks: WebhooksResource;
  /** The account's API keys (extension): list, create (shown once), revoke. */
  readonly keys: KeysResource;
  readonly media: MediaResource;
  readonly analytics: { get(options?: RequestOptions): Promise<Analytics> };
  readonly baseUrl: string;
  readonly #send: Requester;
  readonly #ownedAgent: { close(): Promise<void> } | null;

  constructor(options: SocialPublishClientOptions) {
    const apiKey = checkApiKey(options?.apiKey);
    const baseUrl = checkBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
    const maxRetries = checkCount("maxRetries", options.maxRetries, DEFAULT_RETRY_POLICY.maxRetries, 0);
    const timeoutMs = checkCount("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS, 1);

    let transport: ReturnType<typeof createFetchTransport>;
    if (options.fetch) {
      transport = createFetchTransport(options.fetch);
      this.#ownedAgent = null;
    } else if (options.dispatcher) {
      transport = createUndiciTransport(options.dispatcher);
      this.#ownedAgent = null;
    } else {
      const agent = createKeepAliveAgent();
      transport = createUndiciTransport(agent);
      this.#ownedAgent = agent;
    }

    this.baseUrl = baseUrl.href;
    this.#send = createRequester({
      apiKey,
      baseUrl,
      transport,
      userAgent: `socialpub-client/${CLIENT_VERSION}`,
      timeoutMs,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry, maxRetries },
    });
    this.posts = new PostsResource(this.#send);
    this.accounts = new AccountsResource(this.#send);
    this.webhooks = new WebhooksResource(this.#send);
    this.keys = new KeysResource(this.#send);
    this.media = new MediaResource(this.#send);
    this.analytics = {
      get: async (requestOptions) =>
        (await this.#send({ method: "GET", path: "/analytics", schema: Analytics, options: requestOptions }))
          .data,
    };
  }

  /** The key's user, plan limits and this month's usage: the simplest check that a key works. */
  async me(options?: RequestOptions): Promise<CurrentUser> {
    return (await this.#send({ method: "GET", path: "/me", schema: CurrentUser, options })).data;
  }

  /**
   * Queues a post for a time, or for the next optimal slot with `at: "next"`; `captions` gives a
   * network its own text, as on `posts.create`.
   */
  async schedule(body: ScheduleInput, options?: RequestOptions): Promise<Post> {
    return (await this.#send({ method: "POST", path: "/schedule", json: body, schema: Post, options })).data;
  }

  /**
   * Any endpoint, with the client's authentication, retries and errors, validated against `schema`.
   * For extensions without a method of their own (for example `POST /sandbox/metrics`).
   */
  request<S extends z.ZodType>(request: ApiRequest<S>): Promise<ApiResponse<z.output<S>>> {
    return this.#send(request);
  }

  /** Closes the client's own connections. A client given `fetch` or `dispatcher` leaves those alone. */
  async close(): Promise<void> {
    await this.#ownedAgent?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

// Header-safe and non-empty; the key itself is never repeated in a message.
function checkApiKey(apiKey: unknown): string {
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    throw new TypeError("apiKey is required: pass the sp_test_… or sp_live_… key of the account.");
  }
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new TypeError(
      "apiKey contains spaces or characters that cannot be sent in a header; check how it was copied.",
    );
  }
  return apiKey;
}

function checkBaseUrl(value: string | URL): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`baseUrl must be an absolute URL such as ${DEFAULT_BASE_URL}.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`baseUrl must use http or https, not ${url.protocol}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new TypeError("baseUrl must not contain credentials, a query or a fragment.");
  }
  return url;
}

function checkCount(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new TypeError(`${name} must be an integer of at least ${min}.`);
  }
  return value;
}
