import { randomBytes } from "node:crypto";
import { measure } from "@socialpub/core";
import {
  type FakeOAuthSpec,
  loadFakeOAuthSpec,
  OAuthNetworkFake,
  startOAuthFake,
} from "../../common/fake-oauth.ts";
import { type FakeAnswer, type FakeRequest, formDataOf } from "../../common/fake-server.ts";
import { operationScopesOf } from "../../common/spec-files.ts";
import { XFakeChunkedUploads } from "./chunked.ts";
import { type FakeApp, type FakeGrant, XFakeOAuth } from "./oauth.ts";
import { type XFakeKeys, XFakeOAuth1 } from "./oauth1.ts";
import { invalid, problem } from "./problem.ts";
import { timeline, unknownUser } from "./timeline.ts";

/*
 * A stateful fake of the X API v2 on a loopback port, for tests that cannot reach X: its OAuth 2.0
 * pages and token endpoint (oauth.ts), the signed-in user (GET /2/users/me), image uploads
 * (POST /2/media/upload), chunked video and GIF uploads with their processing (chunked.ts), alt text
 * (POST /2/media/metadata) and posts (POST /2/tweets: up to four images or one video or GIF, a reply, a
 * poll of 2–4 options of 1–25 characters for 5–10,080 minutes and never with media, reply_settings),
 * a user's posts and replies as their timeline lists them (GET /2/users/{id}/tweets, timeline.ts), with
 * X's errors: an expired or revoked token (401), a token without a scope the operation requires (403,
 * the scopes read from x-openapi.json's `security` entries), a duplicate post (403), a reply to a post
 * that is not there (403), and a used-up limit (429 with x-rate-limit-* headers). Requests signed with
 * OAuth 1.0a user-context keys are checked as X checks them (oauth1.ts): a wrong secret is 401, an app
 * with read permission cannot post (403), and an operation whose `security` lacks UserToken refuses
 * them. Every API request and answer is checked against x-openapi.json (specViolations).
 */

const SPEC_FILE = "x-openapi.json";
/** Weighted as X weighs text (a URL 23, most non-Latin characters 2), as twitter-text documents. */
const TEXT_LIMIT = 280;
const IMAGE_LIMIT_BYTES = 5 * 1024 * 1024;
/** X's limit on creating posts with a user token: 100 per 15 minutes. */
const WINDOW_MS = 15 * 60_000;
const POLL = { minOptions: 2, maxOptions: 4, optionMax: 25, minMinutes: 5, maxMinutes: 10_080 };
const REPLY_SETTINGS = ["following", "mentionedUsers", "subscribers", "verified"];
const ALT_MAX = 1000;

/** What POST /2/tweets takes, as far as the fake reads it. */
interface CreateBody {
  text?: unknown;
  media?: { media_ids?: string[] };
  reply?: { in_reply_to_tweet_id?: string };
  poll?: { options?: unknown; duration_minutes?: unknown };
  reply_settings?: unknown;
}

export interface XFakeUser {
  id: string;
  username: string;
  followers: number;
}

export interface XFakePost {
  id: string;
  userId: string;
  text: string;
  mediaIds: string[];
  /** When X made it (Unix ms). */
  createdAt: number;
  /** The post it replies to, if any. */
  replyTo?: string | null;
  /** The first post of its conversation (its own id when it replies to none). */
  conversationId?: string;
  poll?: { options: string[]; duration_minutes: number } | null;
  replySettings?: string | null;
  /** What X counts for the post (public_metrics); zeros until a test sets them. */
  metrics?: Partial<
    Record<
      "impression_count" | "like_count" | "reply_count" | "repost_count" | "quote_count" | "bookmark_count",
      number
    >
  >;
}

export interface XFakeOptions {
  /** Check requests and answers against x-openapi.json (default true). */
  checkSpec?: boolean;
  port?: number;
  now?: () => number;
}

export class XFake extends OAuthNetworkFake<XFakeUser> {
  readonly specViolations: string[] = [];
  readonly oauth: XFakeOAuth;
  readonly users = new Map<string, XFakeUser>();
  readonly posts: XFakePost[] = [];
  readonly media = new Map<string, { userId: string; bytes: number; type: string }>();
  /** Alt text given to uploads (POST /2/media/metadata), by media id. */
  readonly alt = new Map<string, string>();
  /** OAuth 1.0a user-context keys (the developer portal's "Keys and tokens"). */
  readonly oauth1: XFakeOAuth1;
  /** Chunked (video, GIF) uploads: initialize, append, finalize, STATUS. */
  readonly chunked: XFakeChunkedUploads;
  /** The ids of every post lookup (GET /2/tweets?ids=…), one array per request. */
  readonly lookups: string[][] = [];
  /** The query of every timeline read (GET /2/users/{id}/tweets), in order. */
  readonly timelineReads: Record<string, string>[] = [];
  /**
   * While set, a post is made and its answer never sent, as when the connection drops after X made it
   * (tests kill a server in the middle of such an attempt).
   */
  keepPostAnswers = false;
  /**
   * While set, GET /2/users/me answers 200 with `errors` and no `data`, as X answers for an account it
   * cannot show (suspended, locked).
   */
  meWithoutData = false;
  /** Posts a user may create per 15 minutes (X: 100); lower it to run into the limit. */
  postsPerWindow = 100;
  readonly #postTimes = new Map<string, number[]>();
  readonly #spec: FakeOAuthSpec;
  /** The scopes an operation's UserToken entry lists: null when OAuth 1.0a user context cannot call it. */
  readonly #userToken = operationScopesOf(SPEC_FILE, "UserToken");
  readonly #now: () => number;
  #nextId = 1_790_000_000_000_000_000n;

  private constructor(url: string, close: () => Promise<void>, spec: FakeOAuthSpec, now: () => number) {
    super(url, close);
    this.#spec = spec;
    this.#now = now;
    this.oauth = new XFakeOAuth(spec.scopes, now);
    this.oauth1 = new XFakeOAuth1(now);
    this.chunked = new XFakeChunkedUploads(now, () => String(this.#nextId++));
  }

  static async start(options: XFakeOptions = {}): Promise<XFake> {
    const spec = await loadFakeOAuthSpec(
      SPEC_FILE,
      "OAuth2UserToken",
      "X API description",
      options.checkSpec !== false,
    );
    return startOAuthFake(
      options.port,
      (url, close) => new XFake(url, close, spec, options.now ?? Date.now),
      (fake, request) => fake.#handle(request),
    );
  }

  /** Registers an app on X's developer console. */
  addApp(app: Partial<FakeApp> = {}): FakeApp {
    return this.oauth.addApp(app, {
      clientId: () => randomBytes(12).toString("base64url"),
      clientSecret: () => randomBytes(24).toString("base64url"),
    });
  }

  /** The four OAuth 1.0a credentials of an app for `user`'s own account; "read" apps cannot post. */
  addKeys(user: XFakeUser, permission: "read" | "read-write" = "read-write"): XFakeKeys {
    return this.oauth1.addKeys(user.id, permission);
  }

  addUser(user: { username: string; followers?: number }): XFakeUser {
    const made = { id: String(this.#nextId++), username: user.username, followers: user.followers ?? 0 };
    this.users.set(made.id, made);
    return made;
  }

  async #handle(request: FakeRequest): Promise<FakeAnswer> {
    const { pathname } = request.url;
    const oauth = this.oauth.route(request);
    if (oauth) return oauth;
    const multipart = (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
    const form = multipart ? await formDataOf(request) : null;
    const json = !multipart && request.body.length > 0 ? safeJson(request.body) : undefined;
    const body = form
      ? // A form's fields are text; the description types segment_index as the integer it carries.
        Object.fromEntries(
          [...form].map(([k, v]) => [k, typeof v !== "string" ? "<bytes>" : /^\d+$/.test(v) ? Number(v) : v]),
        )
      : json;
    this.specViolations.push(...this.#spec.checkRequest(request, pathname, body));
    const caller = this.#caller(request);
    const answer = "status" in caller ? caller : this.#api(request, pathname, json, form, caller);
    if (
      this.keepPostAnswers &&
      request.method === "POST" &&
      pathname === "/2/tweets" &&
      answer.status === 201
    )
      return new Promise<FakeAnswer>(() => {});
    answer.headers = { ...this.#rateHeaders("status" in caller ? null : caller.grant), ...answer.headers };
    this.specViolations.push(...this.#spec.checkAnswer(request, pathname, answer));
    return answer;
  }

  /**
   * Who calls: an OAuth 2.0 token's grant, or the user whose OAuth 1.0a keys signed the request (the
   * signature checked once, here, as its nonce may not come again); else X's 401.
   */
  #caller(request: FakeRequest): { grant: FakeGrant; oauth1: OAuth1Permission | null } | FakeAnswer {
    const authorization = request.headers.get("authorization") ?? "";
    if (/^OAuth\s/i.test(authorization)) {
      const type = request.headers.get("content-type") ?? "";
      const form = type.startsWith("application/x-www-form-urlencoded")
        ? new URLSearchParams(new TextDecoder().decode(request.body))
        : null;
      const verified = this.oauth1.verify(request, this.url, form);
      if ("refused" in verified) return problem(401, "Unauthorized", "Unauthorized", "about:blank");
      const grant: FakeGrant = {
        userId: verified.userId,
        scopes: [],
        accessToken: "",
        refreshToken: null,
        accessExpiresAt: Number.POSITIVE_INFINITY,
        revoked: false,
      };
      return { grant, oauth1: verified.permission };
    }
    const grant = this.oauth.grantFor(authorization.replace(/^Bearer /, ""));
    if (!grant) return problem(401, "Unauthorized", "Unauthorized", "about:blank");
    return { grant, oauth1: null };
  }

  #api(
    request: FakeRequest,
    pathname: string,
    json: unknown,
    form: FormData | null,
    caller: { grant: FakeGrant; oauth1: OAuth1Permission | null },
  ): FakeAnswer {
    const { grant } = caller;
    if (caller.oauth1 !== null) {
      // OAuth 1.0a reaches the operations whose `security` lists UserToken; posting needs write access.
      if (this.#userToken(request.method, pathname) === null)
        return problem(
          403,
          "Unsupported Authentication",
          "Authenticating with OAuth 1.0a User Context is forbidden for this endpoint.",
          "https://api.twitter.com/2/problems/unsupported-authentication",
        );
      if (request.method !== "GET" && caller.oauth1 === "read")
        return problem(
          403,
          "Forbidden",
          "Your client app is not configured with the appropriate oauth1 app permissions for this endpoint.",
          "https://api.twitter.com/2/problems/oauth1-permissions",
        );
    } else {
      // Each operation's scopes as the description lists them: a token lacking one is refused.
      const missing = this.#spec.missingScopes(grant, request.method, pathname);
      if (missing.length > 0)
        return problem(403, "Forbidden", `Missing scope ${missing.join(", ")}`, "about:blank");
    }
    if (request.method === "GET" && pathname === "/2/users/me") {
      const user = this.users.get(grant.userId)!;
      if (this.meWithoutData) {
        const unavailable = {
          title: "Forbidden",
          detail: `User has been suspended: [${user.username}].`,
          type: "https://api.x.com/2/problems/resource-unavailable",
          resource_type: "user",
          resource_id: user.id,
        };
        return { status: 200, json: { errors: [unavailable] } };
      }
      const metrics = request.url.searchParams.get("user.fields")?.includes("public_metrics");
      return {
        status: 200,
        json: {
          data: {
            id: user.id,
            name: user.username,
            username: user.username,
            ...(metrics && {
              public_metrics: {
                followers_count: user.followers,
                following_count: 0,
                tweet_count: 0,
                listed_count: 0,
                post_count: 0,
              },
            }),
          },
        },
      };
    }
    if (request.method === "POST" && pathname === "/2/media/upload") return this.#upload(grant, form);
    if (request.method === "POST" && pathname === "/2/media/metadata") return this.#metadata(grant, json);
    const chunked = this.#chunked(request, pathname, grant, json, form);
    if (chunked) return chunked;
    if (request.method === "POST" && pathname === "/2/tweets") return this.#post(grant, json);
    if (request.method === "GET" && pathname === "/2/tweets") return this.#lookup(request.url);
    const userPosts = /^\/2\/users\/(\d{1,19})\/tweets$/.exec(pathname);
    if (request.method === "GET" && userPosts) return this.#timeline(userPosts[1]!, request.url);
    return problem(
      404,
      "Not Found Error",
      `No route ${request.method} ${pathname}`,
      "https://api.twitter.com/2/problems/resource-not-found",
    );
  }

  #chunked(
    request: FakeRequest,
    pathname: string,
    grant: FakeGrant,
    json: unknown,
    form: FormData | null,
  ): FakeAnswer | null {
    if (request.method === "GET" && pathname === "/2/media/upload")
      return this.chunked.status(grant, request.url.searchParams.get("media_id"));
    if (request.method !== "POST") return null;
    if (pathname === "/2/media/upload/initialize") return this.chunked.initialize(grant, json);
    const step = /^\/2\/media\/upload\/(\d{1,19})\/(append|finalize)$/.exec(pathname);
    if (!step) return null;
    return step[2] === "append"
      ? this.chunked.append(grant, step[1]!, form)
      : this.chunked.finalize(grant, step[1]!);
  }

  #upload(grant: FakeGrant, form: FormData | null): FakeAnswer {
    const file = form?.get("media");
    if (!(file instanceof Blob))
      return problem(
        400,
        "Invalid Request",
        "media is required",
        "https://api.twitter.com/2/problems/invalid-request",
      );
    if (file.size > IMAGE_LIMIT_BYTES || !/^image\//.test(file.type)) {
      return problem(
        400,
        "Invalid Request",
        "media type or size unsupported",
        "https://api.twitter.com/2/problems/invalid-request",
      );
    }
    const id = String(this.#nextId++);
    this.media.set(id, { userId: grant.userId, bytes: file.size, type: file.type });
    return {
      status: 200,
      json: { data: { id, media_key: `3_${id}`, size: file.size, expires_after_secs: 86400 } },
    };
  }

  #post(grant: FakeGrant, body: unknown): FakeAnswer {
    const times = this.#windowOf(grant.userId);
    if (times.length >= this.postsPerWindow) {
      return problem(429, "Too Many Requests", "Too Many Requests", "about:blank");
    }
    const { text, media, reply, poll, reply_settings } = (body ?? {}) as CreateBody;
    const mediaIds = media?.media_ids ?? [];
    if (typeof text !== "string" || measure(text, "weighted") > TEXT_LIMIT) {
      return problem(
        400,
        "Invalid Request",
        "One or more parameters to your request was invalid.",
        "https://api.twitter.com/2/problems/invalid-request",
      );
    }
    const usable = (id: string) =>
      this.media.get(id)?.userId === grant.userId || this.chunked.ready(id, grant.userId);
    if (!mediaIds.every(usable)) {
      return problem(
        400,
        "Invalid Request",
        "Your media IDs are invalid.",
        "https://api.twitter.com/2/problems/invalid-request",
      );
    }
    const refused = this.#attachments(mediaIds, poll, reply_settings);
    if (refused) return refused;
    const parent = reply?.in_reply_to_tweet_id;
    const repliedTo = parent === undefined ? null : this.posts.find((p) => p.id === parent);
    if (repliedTo === undefined) {
      return problem(
        403,
        "Forbidden",
        "You attempted to reply to a Tweet that is deleted or not visible to you.",
        "about:blank",
      );
    }
    if (this.posts.some((p) => p.userId === grant.userId && p.text === text && text.length > 0)) {
      return problem(
        403,
        "Forbidden",
        "You are not allowed to create a Tweet with duplicate content.",
        "about:blank",
      );
    }
    times.push(this.#now());
    const id = String(this.#nextId++);
    const post: XFakePost = {
      id,
      userId: grant.userId,
      text,
      mediaIds,
      createdAt: this.#now(),
      replyTo: repliedTo?.id ?? null,
      conversationId: repliedTo ? (repliedTo.conversationId ?? repliedTo.id) : id,
      poll: poll
        ? { options: poll.options as string[], duration_minutes: poll.duration_minutes as number }
        : null,
      replySettings: typeof reply_settings === "string" ? reply_settings : null,
    };
    this.posts.push(post);
    return {
      status: 201,
      json: { data: { id: post.id, text: post.text, edit_history_post_ids: [post.id] } },
    };
  }

  /**
   * X's rules on what one post carries: up to four images, or one video or GIF alone; a poll of 2–4
   * options of 1–25 characters for 5 to 10,080 minutes, never beside media; a known reply_settings.
   */
  #attachments(mediaIds: string[], poll: CreateBody["poll"], replySettings: unknown): FakeAnswer | null {
    if (mediaIds.length > 4) return invalid("A post may carry up to 4 media; this one names more.");
    const chunked = mediaIds.filter((id) => this.chunked.uploads.has(id));
    if (chunked.length > 0 && mediaIds.length > 1)
      return invalid("A post with a video or an animated GIF may carry no other media.");
    if (poll !== undefined) {
      if (mediaIds.length > 0) return invalid("A post may carry media or a poll, not both.");
      const options = poll.options;
      const minutes = poll.duration_minutes;
      if (
        !Array.isArray(options) ||
        options.length < POLL.minOptions ||
        options.length > POLL.maxOptions ||
        !options.every((o) => typeof o === "string" && o.length >= 1 && [...o].length <= POLL.optionMax)
      )
        return invalid("poll.options must be 2 to 4 choices of 1 to 25 characters.");
      if (
        !Number.isInteger(minutes) ||
        (minutes as number) < POLL.minMinutes ||
        (minutes as number) > POLL.maxMinutes
      )
        return invalid("poll.duration_minutes must be from 5 to 10080.");
    }
    if (replySettings !== undefined && !REPLY_SETTINGS.includes(replySettings as string))
      return invalid(`reply_settings must be one of ${REPLY_SETTINGS.join(", ")}.`);
    return null;
  }

  /** Alt text for an upload of the caller's (POST /2/media/metadata), up to 1,000 characters. */
  #metadata(grant: FakeGrant, body: unknown): FakeAnswer {
    const { id, metadata } = (body ?? {}) as { id?: unknown; metadata?: { alt_text?: { text?: unknown } } };
    const mine =
      typeof id === "string" &&
      (this.media.get(id)?.userId === grant.userId || this.chunked.uploads.get(id)?.userId === grant.userId);
    if (!mine) return invalid("The media id is not an upload of this account.");
    const alt = metadata?.alt_text?.text;
    if (alt !== undefined && (typeof alt !== "string" || [...alt].length > ALT_MAX))
      return invalid(`metadata.alt_text.text must be text of at most ${ALT_MAX} characters.`);
    // X's media metadata documents alt text for images and GIFs only.
    if (alt !== undefined && this.chunked.uploads.get(id)?.category === "tweet_video")
      return invalid("Alt text is supported for images and GIFs only.");
    if (typeof alt === "string") this.alt.set(id, alt);
    return {
      status: 200,
      json: {
        data: { id, associated_metadata: { ...(typeof alt === "string" && { alt_text: { text: alt } }) } },
      },
    };
  }

  /** Posts by id, with public_metrics when asked; ids X does not know are answered in `errors`. */
  #lookup(url: URL): FakeAnswer {
    const ids = (url.searchParams.get("ids") ?? "").split(",").filter((id) => id !== "");
    if (ids.length === 0 || ids.length > 100) return invalid("ids must name 1 to 100 posts.");
    this.lookups.push(ids);
    const metrics = (url.searchParams.get("post.fields") ?? "").split(",").includes("public_metrics");
    const data = [];
    const errors = [];
    for (const id of ids) {
      const post = this.posts.find((p) => p.id === id);
      if (!post) {
        errors.push({
          type: "https://api.x.com/2/problems/resource-not-found",
          title: "Not Found Error",
          detail: `Could not find post with ids: [${id}].`,
          resource_type: "tweet",
          resource_id: id,
          parameter: "ids",
          value: id,
        });
        continue;
      }
      data.push({
        id: post.id,
        text: post.text,
        edit_history_post_ids: [post.id],
        ...(metrics && {
          public_metrics: {
            impression_count: 0,
            like_count: 0,
            reply_count: 0,
            repost_count: 0,
            quote_count: 0,
            bookmark_count: 0,
            ...post.metrics,
          },
        }),
      });
    }
    return { status: 200, json: { ...(data.length > 0 && { data }), ...(errors.length > 0 && { errors }) } };
  }

  /** A user's posts, newest first, as their timeline lists them. */
  #timeline(userId: string, url: URL): FakeAnswer {
    if (!this.users.has(userId)) return unknownUser(userId);
    this.timelineReads.push(Object.fromEntries(url.searchParams));
    return timeline(this.posts, userId, url.searchParams);
  }

  #windowOf(userId: string): number[] {
    const since = this.#now() - WINDOW_MS;
    const times = (this.#postTimes.get(userId) ?? []).filter((t) => t > since);
    this.#postTimes.set(userId, times);
    return times;
  }

  /** X's limit headers on every API answer: the post-creation window of the caller. */
  #rateHeaders(grant: FakeGrant | null): Record<string, string> {
    const times = grant ? this.#windowOf(grant.userId) : [];
    const reset = Math.ceil(((times[0] ?? this.#now()) + WINDOW_MS) / 1000);
    return {
      "x-rate-limit-limit": String(this.postsPerWindow),
      "x-rate-limit-remaining": String(Math.max(0, this.postsPerWindow - times.length)),
      "x-rate-limit-reset": String(reset),
    };
  }
}

type OAuth1Permission = "read" | "read-write";

function safeJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}
