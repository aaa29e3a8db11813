import { randomBytes } from "node:crypto";
import {
  type FakeApp,
  type FakeGrant,
  FakeOAuth,
  OAuthNetworkFake,
  startOAuthFake,
} from "../../common/fake-oauth.ts";
import type { FakeAnswer, FakeRequest } from "../../common/fake-server.ts";
import { ok, tiktokError } from "./envelope.ts";
import { type FakePublish, FakePublishes } from "./publishes.ts";

/*
 * A stateful fake of TikTok on a loopback port, for tests that cannot reach TikTok, following its
 * documentation (developers.tiktok.com: Login Kit for Web, Content Posting API, Display API; TikTok
 * publishes no machine-readable description): the authorize page and consent (client_key,
 * comma-separated scopes, no PKCE), the token endpoint (client_key and client_secret in the form,
 * 24-hour access tokens, refresh tokens that rotate), creator_info/query, video/init with FILE_UPLOAD
 * (chunks PUT to the upload URL under TikTok's chunk rules) or PULL_FROM_URL, content/init for photos,
 * status/fetch moving PROCESSING_UPLOAD → PUBLISH_COMPLETE (or FAILED with a fail_reason), and
 * video/query. Every answer is TikTok's envelope `{data, error: {code, message, log_id}}`; its errors:
 * access_token_invalid (401), rate_limit_exceeded (429, 6 inits a minute per token),
 * spam_risk_too_many_posts, unaudited_client_can_only_post_to_private_accounts, invalid_params.
 */

export interface TikTokFakeCreator {
  /** The open_id: the creator's id for this app. */
  id: string;
  username: string;
  nickname: string;
  privacyLevels: string[];
  maxDurationSec: number;
  /** Posting refused for this creator (spam_risk_user_banned_from_posting). */
  banned: boolean;
  /** What the creator turned off in TikTok's settings, as creator_info reports it. */
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export class TikTokFake extends OAuthNetworkFake<TikTokFakeCreator> {
  readonly oauth: FakeOAuth;
  readonly creators = new Map<string, TikTokFakeCreator>();
  readonly publishes: FakePublishes;
  /** Whether TikTok has audited the app: unaudited apps may only post SELF_ONLY. */
  audited = false;
  /** Inits a token may make per minute (TikTok: 6). */
  initsPerMinute = 6;
  /** Posts a creator may make through apps per day, before spam_risk_too_many_posts. */
  postsPerDay = 15;
  /** Every init request, in order: the path and the error code answered ("ok" when made). */
  readonly inits: { path: string; code: string }[] = [];
  readonly #initTimes = new Map<string, number[]>();
  readonly #now: () => number;

  private constructor(url: string, close: () => Promise<void>, now: () => number) {
    super(url, close);
    this.#now = now;
    this.publishes = new FakePublishes(url, now);
    this.oauth = new FakeOAuth({
      name: "TikTok",
      scopes: [
        "user.info.basic",
        "user.info.profile",
        "user.info.stats",
        "video.list",
        "video.publish",
        "video.upload",
      ],
      scopeSeparator: ",",
      authorizePath: "/v2/auth/authorize/",
      consentPath: "/v2/auth/consent",
      tokenPath: "/v2/oauth/token/",
      pkce: false,
      clientAuth: "form",
      clientIdParam: "client_key",
      refreshTokenFor: () => true,
      rotate: true,
      accessTokenSeconds: 24 * 60 * 60,
      extraTokenFields: (grant) => ({
        open_id: grant.userId,
        refresh_expires_in: 365 * 24 * 60 * 60,
        token_type: "Bearer",
      }),
      now,
    });
  }

  static async start(options: { port?: number; now?: () => number } = {}): Promise<TikTokFake> {
    return startOAuthFake(
      options.port,
      (url, close) => new TikTokFake(url, close, options.now ?? Date.now),
      (fake, request) => fake.#handle(request),
    );
  }

  addApp(app: Partial<FakeApp> = {}): FakeApp {
    return this.oauth.addApp(app, {
      clientId: () => `aw${randomBytes(7).toString("hex")}`,
      clientSecret: () => randomBytes(16).toString("base64url"),
    });
  }

  addCreator(creator: { username: string; nickname?: string }): TikTokFakeCreator {
    const made: TikTokFakeCreator = {
      id: `-000${randomBytes(12).toString("hex")}`,
      username: creator.username,
      nickname: creator.nickname ?? creator.username,
      privacyLevels: ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"],
      maxDurationSec: 600,
      banned: false,
      commentDisabled: false,
      duetDisabled: false,
      stitchDisabled: true,
    };
    this.creators.set(made.id, made);
    return made;
  }

  /** The posts a creator made, published or not. */
  publishesOf(creator: TikTokFakeCreator): FakePublish[] {
    return [...this.publishes.all.values()].filter((p) => p.userId === creator.id);
  }

  async #handle(request: FakeRequest): Promise<FakeAnswer> {
    const { pathname } = request.url;
    const form = () => new URLSearchParams(new TextDecoder().decode(request.body));
    if (request.method === "GET" && pathname === "/v2/auth/authorize/") return this.oauth.authorize(request);
    if (request.method === "POST" && pathname === "/v2/auth/consent") return this.oauth.consent(form());
    if (request.method === "POST" && pathname === "/v2/oauth/token/")
      return this.oauth.token(request, form());
    if (request.method === "PUT" && pathname.startsWith("/upload/")) {
      return this.publishes.receive(pathname.slice(8), request);
    }
    const grant = this.oauth.grantOf(request);
    if (!grant) {
      return tiktokError(
        401,
        "access_token_invalid",
        "The access token is invalid or not found in the request.",
      );
    }
    if (request.method !== "POST") return tiktokError(404, "invalid_params", `No route ${pathname}`);
    const json = safeJson(request.body);
    if (json === undefined && request.body.length > 0) {
      return tiktokError(400, "invalid_params", "The request body is not valid JSON.");
    }
    const creator = this.creators.get(grant.userId)!;
    switch (pathname) {
      case "/v2/post/publish/creator_info/query/":
        return this.#creatorInfo(grant, creator);
      case "/v2/post/publish/video/init/":
      case "/v2/post/publish/content/init/":
        return this.#init(grant, creator, pathname, json);
      case "/v2/post/publish/status/fetch/":
        return this.publishes.status(grant.userId, json);
      case "/v2/video/query/":
        return this.#videoQuery(grant, request.url.searchParams.get("fields") ?? "", json);
      default:
        return tiktokError(404, "invalid_params", `No route ${pathname}`);
    }
  }

  #creatorInfo(grant: FakeGrant, creator: TikTokFakeCreator): FakeAnswer {
    if (!grant.scopes.includes("video.publish")) {
      return tiktokError(401, "scope_not_authorized", "The user did not authorize the scope video.publish.");
    }
    if (creator.banned) {
      return tiktokError(
        403,
        "spam_risk_user_banned_from_posting",
        "The user is banned from making new posts.",
      );
    }
    if (this.#postsToday(creator) >= this.postsPerDay) {
      return tiktokError(
        403,
        "spam_risk_too_many_posts",
        "The daily post cap from the API is reached for the current user.",
      );
    }
    return ok({
      creator_avatar_url: `${this.url}/avatar/${creator.id}.jpeg`,
      creator_username: creator.username,
      creator_nickname: creator.nickname,
      privacy_level_options: creator.privacyLevels,
      comment_disabled: creator.commentDisabled,
      duet_disabled: creator.duetDisabled,
      stitch_disabled: creator.stitchDisabled,
      max_video_post_duration_sec: creator.maxDurationSec,
    });
  }

  #postsToday(creator: TikTokFakeCreator): number {
    const since = this.#now() - DAY_MS;
    return this.publishesOf(creator).filter((p) => p.madeAt > since && p.status !== "FAILED").length;
  }

  #init(grant: FakeGrant, creator: TikTokFakeCreator, path: string, body: unknown): FakeAnswer {
    const answer = this.#initAnswer(grant, creator, path, body);
    const code = (answer.json as { error: { code: string } }).error.code;
    this.inits.push({ path, code });
    return answer;
  }

  #initAnswer(grant: FakeGrant, creator: TikTokFakeCreator, path: string, body: unknown): FakeAnswer {
    if (!grant.scopes.includes("video.publish")) {
      return tiktokError(401, "scope_not_authorized", "The user did not authorize the scope video.publish.");
    }
    const since = this.#now() - MINUTE_MS;
    const times = (this.#initTimes.get(grant.accessToken) ?? []).filter((t) => t > since);
    this.#initTimes.set(grant.accessToken, times);
    if (times.length >= this.initsPerMinute) {
      return tiktokError(429, "rate_limit_exceeded", "API rate limit was exceeded, please try again later.");
    }
    times.push(this.#now());
    if (creator.banned) {
      return tiktokError(
        403,
        "spam_risk_user_banned_from_posting",
        "The user is banned from making new posts.",
      );
    }
    if (this.#postsToday(creator) >= this.postsPerDay) {
      return tiktokError(
        403,
        "spam_risk_too_many_posts",
        "The daily post cap from the API is reached for the current user.",
      );
    }
    const b = (body ?? {}) as { post_info?: Record<string, unknown> };
    const privacy = b.post_info?.privacy_level;
    if (typeof privacy !== "string" || !creator.privacyLevels.includes(privacy)) {
      return tiktokError(
        400,
        "privacy_level_option_mismatch",
        "privacy_level is not one of the creator's options.",
      );
    }
    const flags = ["disable_comment", "disable_duet", "disable_stitch"].filter(
      (key) => b.post_info?.[key] !== undefined && typeof b.post_info[key] !== "boolean",
    );
    if (flags.length > 0) return tiktokError(400, "invalid_params", `${flags.join(", ")} must be booleans.`);
    if (!this.audited && privacy !== "SELF_ONLY") {
      return tiktokError(
        403,
        "unaudited_client_can_only_post_to_private_accounts",
        "Unaudited clients can only post to private accounts.",
      );
    }
    const made =
      path === "/v2/post/publish/video/init/"
        ? this.publishes.initVideo(creator.id, body, creator.maxDurationSec)
        : this.publishes.initPhotos(creator.id, body);
    if ("problem" in made) return tiktokError(400, made.code, made.problem);
    return ok(made.data);
  }

  #videoQuery(grant: FakeGrant, fields: string, body: unknown): FakeAnswer {
    if (!grant.scopes.includes("video.list")) {
      return tiktokError(401, "scope_not_authorized", "The user did not authorize the scope video.list.");
    }
    const ids = ((body ?? {}) as { filters?: { video_ids?: unknown[] } }).filters?.video_ids ?? [];
    const wanted = fields.split(",");
    const videos = [...this.publishes.all.values()]
      .filter((p) => p.userId === grant.userId && p.postId !== null && ids.map(String).includes(p.postId))
      .map((p) => {
        const all: Record<string, unknown> = { id: p.postId, ...p.counts };
        return Object.fromEntries(Object.entries(all).filter(([k]) => wanted.includes(k)));
      });
    return ok({ videos, cursor: 0, has_more: false });
  }
}

function safeJson(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

export type { FakePublish } from "./publishes.ts";
