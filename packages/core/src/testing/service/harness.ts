import { afterEach, beforeEach } from "vitest";
import type { NetworkId } from "../../contract/networks.ts";
import { generateApiKey } from "../../keys.ts";
import { type ProvisionedUser, type ProvisionOptions, provisionUser } from "../../provision.ts";
import type { Store } from "../../store/types.ts";
import type { FakeClock } from "../fake-clock.ts";

/**
 * What the service conformance suite runs against: the service's `fetch` (in-process, or a function
 * that sends the request over real HTTP to a server on port 0), the store that service uses, and the
 * fake clock it was built with. Requests are built on `http://localhost`; an HTTP target rewrites the
 * origin to its server's. The service must have been started (its scheduler armed) and built with
 * the default limits (1 MiB bodies, 600 requests a minute per key): the suite checks those numbers.
 * It must accept webhook URLs on private addresses (`allowPrivateWebhookUrls`): the suite's webhook
 * receivers listen on 127.0.0.1.
 */
export interface ServiceTarget {
  fetch(request: Request): Promise<Response>;
  store: Store;
  clock: FakeClock;
  close(): Promise<void>;
  /**
   * Set when the suite runs in live mode: every user gets a live key and its accounts are connected
   * for real, through the networks' local peers (a real PDS, the fakes' consent pages), and posts
   * publish through the live adapters instead of the sandbox.
   */
  live?: LiveAccounts;
}

/** Connects a live-key user's accounts through the networks' local peers, as a person would. */
export interface LiveAccounts {
  /** The networks it can connect. */
  readonly networks: readonly NetworkId[];
  connect(user: ApiUser, network: NetworkId): Promise<void>;
}

export type MakeServiceTarget = () => ServiceTarget | Promise<ServiceTarget>;

export const ORIGIN = "http://localhost";
export const BASE = `${ORIGIN}/api/v1`;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field in the tests.
export type Json = any;

export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or null when the body is empty or not JSON. */
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is instead of JSON-encoding `body`. */
  rawBody?: BodyInit;
  headers?: Record<string, string>;
  /** Send no Authorization header. */
  anonymous?: boolean;
}

/** A user of the service under test, with helpers that send requests with its key. */
export class ApiUser {
  readonly target: ServiceTarget;
  readonly apiKey: string;
  readonly provisioned: ProvisionedUser;

  constructor(target: ServiceTarget, provisioned: ProvisionedUser) {
    this.target = target;
    this.provisioned = provisioned;
    this.apiKey = provisioned.apiKey;
  }

  get id(): string {
    return this.provisioned.user.id;
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    if (!options.anonymous) headers.authorization = `Bearer ${this.apiKey}`;
    let body: BodyInit | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] = "application/json";
    }
    Object.assign(headers, options.headers);
    const url = path.startsWith("http")
      ? path
      : path.startsWith("/healthz")
        ? `${ORIGIN}${path}`
        : `${BASE}${path}`;
    return send(this.target, new Request(url, { method, headers, body }));
  }

  get(path: string, options?: RequestOptions) {
    return this.request("GET", path, options);
  }

  post(path: string, body?: unknown, options?: RequestOptions) {
    return this.request("POST", path, { ...options, body });
  }

  patch(path: string, body?: unknown, options?: RequestOptions) {
    return this.request("PATCH", path, { ...options, body });
  }

  delete(path: string, options?: RequestOptions) {
    return this.request("DELETE", path, options);
  }

  /** POST /posts that must succeed; returns the post. */
  async createPost(body: Record<string, unknown>): Promise<Json> {
    const res = await this.post("/posts", body);
    if (res.status !== 201) throw new Error(`POST /posts answered ${res.status}: ${res.text}`);
    return res.body;
  }
}

export async function send(target: ServiceTarget, request: Request): Promise<ApiResponse> {
  const response = await target.fetch(request);
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Per-test state: a fresh target before each test, closed after it. */
export interface Harness {
  /** Whether the suite runs in live mode (its target has `live`): known when tests are defined. */
  readonly live: boolean;
  readonly target: ServiceTarget;
  readonly clock: FakeClock;
  readonly store: Store;
  /** Provisions a user (creator plan and x, bluesky, linkedin unless told otherwise). */
  user(options?: ProvisionOptions): Promise<ApiUser>;
}

export function useHarness(makeTarget: MakeServiceTarget, live = false): Harness {
  let current: ServiceTarget | null = null;
  beforeEach(async () => {
    current = await makeTarget();
  });
  afterEach(async () => {
    await current?.close();
    current = null;
  });
  const target = () => {
    if (!current) throw new Error("No service target: use the harness inside a test.");
    return current;
  };
  return {
    live,
    get target() {
      return target();
    },
    get clock() {
      return target().clock;
    },
    get store() {
      return target().store;
    },
    async user(options: ProvisionOptions = {}) {
      const t = target();
      const { accounts = ["x", "bluesky", "linkedin"], ...rest } = options;
      if (!t.live) {
        const provisioned = await provisionUser(t.store, {
          plan: "creator",
          accounts,
          now: t.clock.now(),
          ...rest,
        });
        return new ApiUser(t, provisioned);
      }
      // Live mode: the same user, but with a live key and accounts connected through the peers.
      const provisioned = await provisionUser(t.store, {
        plan: "creator",
        now: t.clock.now(),
        ...rest,
        accounts: [],
        key: generateApiKey("live"),
      });
      const user = new ApiUser(t, provisioned);
      for (const spec of accounts) {
        if (typeof spec !== "string" || !t.live.networks.includes(spec)) {
          throw new Error(`live mode cannot connect ${JSON.stringify(spec)}: keep this test sandbox-only.`);
        }
        await t.live.connect(user, spec);
      }
      return user;
    },
  };
}

/** An object's keys, sorted: to check a resource has exactly the contract's fields. */
export function keysOf(value: object): string[] {
  return Object.keys(value).sort();
}
