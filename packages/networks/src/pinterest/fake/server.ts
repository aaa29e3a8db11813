import { randomBytes } from "node:crypto";
import {
  type FakeApp,
  type FakeOAuthSpec,
  loadFakeOAuthSpec,
  OAuthNetworkFake,
  startOAuthFake,
} from "../../common/fake-oauth.ts";
import type { FakeAnswer, FakeRequest } from "../../common/fake-server.ts";
import { PinterestFakeOAuth } from "./oauth.ts";

/*
 * A stateful fake of the Pinterest API v5 on a loopback port, for tests that cannot reach Pinterest:
 * its OAuth pages and token endpoint (oauth.ts), the signed-in account (GET /v5/user_account), its
 * boards (GET /v5/boards, paged with a bookmark), pins (POST /v5/pins with an image in base64, or a
 * carousel of 2–5 with multiple_image_base64), a
 * board's pins (GET /v5/boards/{board_id}/pins, newest first, paged with a bookmark) and a Pin's
 * analytics (GET /v5/pins/{pin_id}/analytics), with
 * Pinterest's errors: an expired or revoked token (401), an unknown board (404), an image that is not
 * one (400), a token without a scope the operation requires (403), and a used-up limit (429 with
 * x-ratelimit-* headers). The scopes each operation requires are read from pinterest-openapi.json's
 * `security` entries, and every request under /v5 and every answer to it is checked against the same
 * description (specViolations).
 */

const SPEC_FILE = "pinterest-openapi.json";
/**
 * The description lists a Pin's analytics metric types as a oneOf of two enums (standard, video) that
 * share most values (IMPRESSION, SAVE, TOTAL_COMMENTS, …), so a shared value matches both and "exactly
 * one" can never hold; Pinterest takes them. Only that finding is set aside.
 */
const SPEC_AMBIGUITY =
  /^pins\/analytics request\/query\/metric_types\/\d+ must match exactly one schema in oneOf$/;
/** Pinterest's write limit per user (org_write): calls a minute. */
const WINDOW_MS = 60_000;
const IMAGE_LIMIT_BYTES = 20 * 1024 * 1024;

export interface PinterestFakeUser {
  id: string;
  username: string;
  followers: number;
  boards: { id: string; name: string }[];
}

export interface PinterestFakePin {
  id: string;
  userId: string;
  boardId: string;
  title: string | null;
  description: string | null;
  link: string | null;
  altText: string | null;
  /** The first image (the only one of a pin that is not a carousel). */
  image: { contentType: string; bytes: number };
  /** Every image, in order: one, or a carousel's 2–5. */
  images: { contentType: string; bytes: number }[];
  /** When it was made (Unix ms). */
  createdAt: number;
  /** What /v5/pins/{id}/analytics reports (IMPRESSION, SAVE, TOTAL_COMMENTS, TOTAL_REACTIONS, …); tests set them. */
  analytics: Record<string, number>;
}

export interface PinterestFakeOptions {
  /** Check requests and answers against pinterest-openapi.json (default true). */
  checkSpec?: boolean;
  port?: number;
  now?: () => number;
}

export class PinterestFake extends OAuthNetworkFake<PinterestFakeUser> {
  readonly specViolations: string[] = [];
  readonly oauth: PinterestFakeOAuth;
  readonly users = new Map<string, PinterestFakeUser>();
  readonly pins: PinterestFakePin[] = [];
  /** Each read of a board's pins (GET /v5/boards/{board_id}/pins): its query. */
  readonly boardReads: Record<string, string>[] = [];
  /** Pins a user may create per minute; lower it to run into the limit. */
  pinsPerWindow = 100;
  readonly #pinTimes = new Map<string, number[]>();
  readonly #spec: FakeOAuthSpec;
  readonly #now: () => number;
  #nextId = 1_125_899_906_842_624n;

  private constructor(url: string, close: () => Promise<void>, spec: FakeOAuthSpec, now: () => number) {
    super(url, close);
    this.#spec = spec;
    this.#now = now;
    this.oauth = new PinterestFakeOAuth(spec.scopes, now);
  }

  static async start(options: PinterestFakeOptions = {}): Promise<PinterestFake> {
    const spec = await loadFakeOAuthSpec(
      SPEC_FILE,
      "pinterest_oauth2",
      "Pinterest API description",
      options.checkSpec !== false,
    );
    return startOAuthFake(
      options.port,
      (url, close) => new PinterestFake(url, close, spec, options.now ?? Date.now),
      (fake, request) => fake.#handle(request),
    );
  }

  /** Registers an app on Pinterest's developer console. */
  addApp(app: Partial<FakeApp> = {}): FakeApp {
    return this.oauth.addApp(app, {
      clientId: () => String(this.#nextId++),
      clientSecret: () => randomBytes(20).toString("hex"),
    });
  }

  addUser(user: { username: string; followers?: number; boards?: string[] }): PinterestFakeUser {
    const made: PinterestFakeUser = {
      id: String(this.#nextId++),
      username: user.username,
      followers: user.followers ?? 0,
      boards: (user.boards ?? []).map((name) => ({ id: String(this.#nextId++), name })),
    };
    this.users.set(made.id, made);
    return made;
  }

  async #handle(request: FakeRequest): Promise<FakeAnswer> {
    const { pathname } = request.url;
    const oauth = this.oauth.route(request);
    if (oauth) return oauth;
    if (!pathname.startsWith("/v5/")) return error(404, 404, `No route ${request.method} ${pathname}`);
    const path = pathname.slice(3);
    const form = path === "/oauth/token" ? new URLSearchParams(new TextDecoder().decode(request.body)) : null;
    const json = !form && request.body.length > 0 ? safeJson(request.body) : undefined;
    const body = form ? Object.fromEntries(form) : json;
    for (const p of this.#spec.checkRequest(request, path, body))
      if (!SPEC_AMBIGUITY.test(p)) this.specViolations.push(p);
    const answer = form ? this.#token(request, form) : this.#api(request, path, json);
    if (!form) answer.headers = { ...this.#rateHeaders(request), ...answer.headers };
    this.specViolations.push(...this.#spec.checkAnswer(request, path, answer));
    return answer;
  }

  /** The token endpoint, its refusals in Pinterest's own error shape (`{code, message}`) as its description gives it. */
  #token(request: FakeRequest, form: URLSearchParams): FakeAnswer {
    const answer = this.oauth.token(request, form);
    if (answer.status < 400) return answer;
    const said = answer.json as { error: string; error_description: string };
    return error(answer.status, answer.status === 401 ? 2 : 1, `${said.error}: ${said.error_description}`);
  }

  #api(request: FakeRequest, path: string, json: unknown): FakeAnswer {
    const grant = this.oauth.grantOf(request);
    if (!grant) return error(401, 2, "Authentication failed.");
    // Each operation's scopes as the description lists them: a token lacking one is refused.
    const missing = this.#spec.missingScopes(grant, request.method, path);
    if (missing.length > 0)
      return error(
        403,
        3,
        `Not authorized: the token lacks the scope${missing.length > 1 ? "s" : ""} ${missing.join(", ")}.`,
      );
    const user = this.users.get(grant.userId)!;
    if (request.method === "GET" && path === "/user_account") {
      return {
        status: 200,
        json: {
          id: user.id,
          username: user.username,
          account_type: "PINNER",
          follower_count: user.followers,
          board_count: user.boards.length,
        },
      };
    }
    if (request.method === "GET" && path === "/boards") return this.#boards(user, request.url.searchParams);
    if (request.method === "POST" && path === "/pins") return this.#pin(user, json);
    const boardPins = /^\/boards\/(\d+)\/pins$/.exec(path);
    if (request.method === "GET" && boardPins)
      return this.#boardPins(user, boardPins[1]!, request.url.searchParams);
    const analytics = /^\/pins\/(\d+)\/analytics$/.exec(path);
    if (request.method === "GET" && analytics)
      return this.#analytics(user, analytics[1]!, request.url.searchParams);
    return error(404, 404, `No route ${request.method} /v5${path}`);
  }

  #boards(user: PinterestFakeUser, query: URLSearchParams): FakeAnswer {
    const size = Math.min(250, Math.max(1, Number(query.get("page_size") ?? 25) || 25));
    const start = Number(query.get("bookmark") ?? 0) || 0;
    const items = user.boards.slice(start, start + size).map((b) => ({
      id: b.id,
      name: b.name,
      owner: { username: user.username },
      privacy: "PUBLIC",
    }));
    const next = start + size < user.boards.length ? String(start + size) : null;
    return { status: 200, json: { items, bookmark: next } };
  }

  #pin(user: PinterestFakeUser, body: unknown): FakeAnswer {
    const times = this.#windowOf(user.id);
    if (times.length >= this.pinsPerWindow)
      return error(429, 8, "You have exceeded your rate limit. Try again later.");
    const b = (body ?? {}) as Record<string, unknown>;
    const board = user.boards.find((x) => x.id === b.board_id);
    if (!board) return error(404, 2, "Board not found.");
    const source = (b.media_source ?? {}) as Record<string, unknown>;
    let sent: { data?: unknown; content_type?: unknown }[];
    if (source.source_type === "image_base64") sent = [source];
    else if (source.source_type === "multiple_image_base64" && Array.isArray(source.items)) {
      sent = source.items as { data?: unknown; content_type?: unknown }[];
      if (sent.length < 2 || sent.length > 5)
        return error(400, 1, "Invalid parameters: a carousel Pin has 2 to 5 images.");
    } else return error(400, 1, "Invalid parameters: media_source is required.");
    const images: PinterestFakePin["images"] = [];
    for (const item of sent) {
      if (typeof item?.data !== "string")
        return error(400, 1, "Invalid parameters: media_source is required.");
      const bytes = Buffer.from(item.data, "base64");
      const kind = imageKind(bytes);
      if (kind === null || kind !== item.content_type || bytes.length > IMAGE_LIMIT_BYTES) {
        return error(400, 1, "Invalid parameters: the image could not be read as a JPEG or PNG.");
      }
      images.push({ contentType: kind, bytes: bytes.length });
    }
    times.push(this.#now());
    const pin: PinterestFakePin = {
      id: String(this.#nextId++),
      userId: user.id,
      boardId: board.id,
      title: typeof b.title === "string" ? b.title : null,
      description: typeof b.description === "string" ? b.description : null,
      link: typeof b.link === "string" ? b.link : null,
      altText: typeof b.alt_text === "string" ? b.alt_text : null,
      image: images[0]!,
      images,
      createdAt: this.#now(),
      analytics: {},
    };
    this.pins.push(pin);
    return { status: 201, json: pinJson(pin) };
  }

  /**
   * A board's pins, newest first, `page_size` a page (25 unless asked; the description's bounds are
   * 1 to 250) and the next page's `bookmark` (null on the last). The board must be the account's.
   */
  #boardPins(user: PinterestFakeUser, boardId: string, query: URLSearchParams): FakeAnswer {
    if (!user.boards.some((b) => b.id === boardId)) return error(404, 404, "Board not found.");
    this.boardReads.push(Object.fromEntries(query));
    const size = Math.min(250, Math.max(1, Number(query.get("page_size") ?? 25) || 25));
    const start = Number(query.get("bookmark") ?? 0) || 0;
    // Newest first by when each was made; of two at once, the later pinned first.
    const pins = this.pins
      .filter((p) => p.boardId === boardId)
      .reverse()
      .sort((a, b) => b.createdAt - a.createdAt);
    const items = pins.slice(start, start + size).map(pinJson);
    const next = start + size < pins.length ? String(start + size) : null;
    return { status: 200, json: { items, bookmark: next } };
  }

  /**
   * A Pin's analytics over start_date..end_date (both required, at most 90 days back), keyed by app
   * type (`all`): lifetime totals for comments and reactions, the window's sums for the rest.
   */
  #analytics(user: PinterestFakeUser, pinId: string, query: URLSearchParams): FakeAnswer {
    const pin = this.pins.find((p) => p.id === pinId);
    if (!pin) return error(404, 404, "Pin not found.");
    if (pin.userId !== user.id) return error(403, 403, "Not authorized to access board or Pin.");
    const start = Date.parse(query.get("start_date") ?? "");
    const end = Date.parse(query.get("end_date") ?? "");
    const types = (query.get("metric_types") ?? "").split(",").filter(Boolean);
    if (!Number.isFinite(start) || !Number.isFinite(end) || start > end || types.length === 0)
      return error(400, 400, "Invalid pins analytics parameters.");
    if (this.#now() - start > 90 * 86_400_000)
      return error(400, 400, "Invalid pins analytics parameters: start_date is more than 90 days back.");
    const lifetime = new Set(["TOTAL_COMMENTS", "TOTAL_REACTIONS"]);
    const pick = (keep: (t: string) => boolean) =>
      Object.fromEntries(types.filter(keep).map((t) => [t, pin.analytics[t] ?? 0]));
    return {
      status: 200,
      json: {
        all: {
          lifetime_metrics: pick((t) => lifetime.has(t)),
          summary_metrics: pick((t) => !lifetime.has(t)),
          daily_metrics: [],
        },
      },
    };
  }

  #windowOf(userId: string): number[] {
    const since = this.#now() - WINDOW_MS;
    const times = (this.#pinTimes.get(userId) ?? []).filter((t) => t > since);
    this.#pinTimes.set(userId, times);
    return times;
  }

  /** Pinterest's limit headers: the caller's write window, its reset in seconds from now. */
  #rateHeaders(request: FakeRequest): Record<string, string> {
    const grant = this.oauth.grantOf(request);
    const times = grant ? this.#windowOf(grant.userId) : [];
    const resetMs = (times[0] ?? this.#now()) + WINDOW_MS - this.#now();
    return {
      "x-ratelimit-limit": String(this.pinsPerWindow),
      "x-ratelimit-remaining": String(Math.max(0, this.pinsPerWindow - times.length)),
      "x-ratelimit-reset": String(Math.max(1, Math.ceil(resetMs / 1000))),
    };
  }
}

/** A Pin as the API answers it. */
function pinJson(pin: PinterestFakePin): Record<string, unknown> {
  return {
    id: pin.id,
    board_id: pin.boardId,
    created_at: new Date(pin.createdAt).toISOString(),
    title: pin.title,
    description: pin.description,
    link: pin.link,
    alt_text: pin.altText,
  };
}

/** What an image's first bytes say it is: JPEG or PNG (the kinds base64 pins take), else null. */
function imageKind(bytes: Buffer): string | null {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))) {
    return "image/png";
  }
  return null;
}

function safeJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/** An error as Pinterest answers it: `{code, message}`. */
function error(status: number, code: number, message: string): FakeAnswer {
  return { status, json: { code, message } };
}
