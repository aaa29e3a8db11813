import { randomBytes } from "node:crypto";
import {
  type FakeApp,
  type FakeGrant,
  FakeOAuth,
  OAuthNetworkFake,
  startOAuthFake,
} from "../../common/fake-oauth.ts";
import { type FakeAnswer, type FakeRequest, isJpegPngOrGif } from "../../common/fake-server.ts";

/*
 * A stateful fake of LinkedIn on a loopback port, for tests that cannot reach LinkedIn: its site's
 * authorize page and token endpoint (/oauth/v2/…: no PKCE, the client's id and secret in the form,
 * 60-day access tokens, a refresh token only for apps approved for programmatic refresh, not rotated),
 * OpenID userinfo, the image upload (initializeUpload, then a PUT of the bytes to the upload URL),
 * /rest/posts, which answers 201 with the post's URN in x-restli-id (one image as content.media, 2–20
 * as content.multiImage, each an uploaded image with optional altText; visibility PUBLIC or
 * CONNECTIONS), its author finder (GET /rest/posts?q=author: the member's own posts, newest first, with
 * r_member_social only), and the Comments API (POST /rest/socialActions/{post}/comments, w_member_social:
 * the member comments on an existing post, at most 1,250 characters). LinkedIn's habits: a missing or
 * retired LinkedIn-Version is a 426, a used-up daily limit a 429 without a reset header, errors as
 * `{status, serviceErrorCode, code, message}`. LinkedIn publishes no OpenAPI description: the shapes
 * follow its API documentation.
 */

const DAY_MS = 24 * 60 * 60_000;
/** The versions the fake serves (LinkedIn serves each for about a year). */
const SERVED_VERSIONS = /^(2025(0[1-9]|1[0-2])|2026\d\d)$/;

export interface LinkedInFakeMember {
  id: string;
  name: string;
}

export interface LinkedInFakePost {
  urn: string;
  author: string;
  commentary: string;
  /** The first image's URN and alt text (the only one of a single-image post). */
  imageUrn: string | null;
  altText: string | null;
  /** Every image, in order, with its alt text: one for content.media, 2–20 for content.multiImage. */
  images: { urn: string; altText: string | null }[];
  visibility: string;
  version: string;
  /** When LinkedIn made it (Unix ms). */
  createdAt: number;
}

export interface LinkedInFakeComment {
  urn: string;
  /** The post's URN commented on. */
  object: string;
  actor: string;
  text: string;
  createdAt: number;
}

/** The most characters of a comment's text. */
const COMMENT_MAX_LENGTH = 1250;
const VISIBILITIES = new Set(["PUBLIC", "CONNECTIONS", "LOGGED_IN"]);

export class LinkedInFake extends OAuthNetworkFake<LinkedInFakeMember> {
  readonly oauth: FakeOAuth;
  readonly members = new Map<string, LinkedInFakeMember>();
  readonly posts: LinkedInFakePost[] = [];
  readonly comments: LinkedInFakeComment[] = [];
  /** Images by URN: uploaded once their bytes were PUT. */
  readonly images = new Map<
    string,
    { owner: string; uploadToken: string; bytes: number | null; type: string | null }
  >();
  /** The query of every author finder read (GET /rest/posts?q=author), in order. */
  readonly finderReads: Record<string, string>[] = [];
  /** Posts a member may create per day; lower it to run into the limit. */
  postsPerDay = 150;
  /** Whether the app is approved for programmatic refresh (refresh tokens). */
  programmaticRefresh = true;
  readonly #postTimes = new Map<string, number[]>();
  readonly #now: () => number;
  #nextId = 7_100_000_000_000_000_000n;

  private constructor(url: string, close: () => Promise<void>, now: () => number) {
    super(url, close);
    this.#now = now;
    this.oauth = new FakeOAuth({
      name: "LinkedIn",
      scopes: ["openid", "profile", "email", "w_member_social", "r_member_social", "r_liteprofile"],
      scopeSeparator: " ",
      authorizePath: "/oauth/v2/authorization",
      consentPath: "/oauth/v2/consent",
      tokenPath: "/oauth/v2/accessToken",
      pkce: false,
      clientAuth: "form",
      refreshTokenFor: () => this.programmaticRefresh,
      rotate: false,
      accessTokenSeconds: 60 * 24 * 60 * 60,
      extraTokenFields: (grant) =>
        grant.refreshToken ? { refresh_token_expires_in: 365 * 24 * 60 * 60 } : {},
      now,
    });
  }

  static async start(options: { port?: number; now?: () => number } = {}): Promise<LinkedInFake> {
    return startOAuthFake(
      options.port,
      (url, close) => new LinkedInFake(url, close, options.now ?? Date.now),
      (fake, request) => fake.#handle(request),
    );
  }

  addApp(app: Partial<FakeApp> = {}): FakeApp {
    return this.oauth.addApp(app, {
      clientId: () => randomBytes(7).toString("hex"),
      clientSecret: () => randomBytes(12).toString("base64url"),
    });
  }

  addMember(member: { name: string }): LinkedInFakeMember {
    const made = { id: randomBytes(5).toString("base64url"), name: member.name };
    this.members.set(made.id, made);
    return made;
  }

  async #handle(request: FakeRequest): Promise<FakeAnswer> {
    const { pathname } = request.url;
    const oauth = this.oauth.route(request);
    if (oauth) return oauth;
    const grant = this.oauth.grantOf(request);
    if (!grant)
      return error(
        401,
        65601,
        "REVOKED_ACCESS_TOKEN",
        "The token used in the request has been revoked or expired",
      );
    if (request.method === "GET" && pathname === "/v2/userinfo") {
      const member = this.members.get(grant.userId)!;
      return {
        status: 200,
        json: {
          sub: member.id,
          name: member.name,
          email_verified: true,
          locale: { country: "US", language: "en" },
        },
      };
    }
    if (request.method === "PUT" && pathname.startsWith("/upload/"))
      return this.#receive(pathname.slice(8), request);
    if (!pathname.startsWith("/rest/")) return error(404, 0, "NOT_FOUND", `No route ${pathname}`);
    const version = request.headers.get("linkedin-version") ?? "";
    if (!SERVED_VERSIONS.test(version)) {
      return {
        ...error(426, 0, "NONEXISTENT_VERSION", `Requested version ${version} is not active`),
        headers: { "x-requested-version": version },
      };
    }
    if (request.headers.get("x-restli-protocol-version") !== "2.0.0") {
      return error(400, 0, "INVALID_PROTOCOL_VERSION", "X-Restli-Protocol-Version 2.0.0 is required");
    }
    const json = safeJson(request.body);
    if (
      request.method === "POST" &&
      pathname === "/rest/images" &&
      request.url.searchParams.get("action") === "initializeUpload"
    ) {
      return this.#initialize(grant, json);
    }
    if (request.method === "POST" && pathname === "/rest/posts") return this.#post(grant, json, version);
    if (request.method === "GET" && pathname === "/rest/posts") return this.#findByAuthor(grant, request);
    const commenting = /^\/rest\/socialActions\/([^/]+)\/comments$/.exec(pathname);
    if (request.method === "POST" && commenting)
      return this.#comment(grant, decodeURIComponent(commenting[1]!), json);
    return error(404, 0, "NOT_FOUND", `No route ${pathname}`);
  }

  #initialize(grant: FakeGrant, body: unknown): FakeAnswer {
    const owner = (body as { initializeUploadRequest?: { owner?: string } } | null)?.initializeUploadRequest
      ?.owner;
    if (owner !== `urn:li:person:${grant.userId}`)
      return error(403, 100, "ACCESS_DENIED", "Not enough permissions to act as this owner");
    const urn = `urn:li:image:D4E${randomBytes(8).toString("hex")}`;
    const uploadToken = randomBytes(10).toString("hex");
    this.images.set(urn, { owner, uploadToken, bytes: null, type: null });
    return {
      status: 200,
      json: {
        value: {
          uploadUrlExpiresAt: this.#now() + DAY_MS,
          uploadUrl: `${this.url}/upload/${uploadToken}`,
          image: urn,
        },
      },
    };
  }

  #receive(uploadToken: string, request: FakeRequest): FakeAnswer {
    const image = [...this.images.values()].find((i) => i.uploadToken === uploadToken);
    if (!image) return error(404, 0, "NOT_FOUND", "Unknown upload");
    if (!isJpegPngOrGif(request.body))
      return error(400, 0, "INVALID_IMAGE", "The uploaded file is not a supported image");
    image.bytes = request.body.length;
    image.type = request.headers.get("content-type");
    return { status: 201, text: "" };
  }

  #post(grant: FakeGrant, body: unknown, version: string): FakeAnswer {
    if (!grant.scopes.includes("w_member_social"))
      return error(403, 100, "ACCESS_DENIED", "Not enough permissions to create a post");
    const b = (body ?? {}) as Record<string, unknown>;
    const author = `urn:li:person:${grant.userId}`;
    if (b.author !== author)
      return error(403, 100, "ACCESS_DENIED", "Not enough permissions to post as this author");
    const problems = [
      typeof b.commentary === "string" && [...b.commentary].length <= 3000 ? null : "/commentary",
      typeof b.visibility === "string" && VISIBILITIES.has(b.visibility) ? null : "/visibility",
      b.lifecycleState === "PUBLISHED" ? null : "/lifecycleState",
      (b.distribution as { feedDistribution?: string } | undefined)?.feedDistribution === "MAIN_FEED"
        ? null
        : "/distribution",
    ].filter(Boolean);
    if (problems.length > 0)
      return error(422, 0, "UNPROCESSABLE_ENTITY", `ERROR :: ${problems.join(", ")} :: invalid`);
    const content = b.content as
      | { media?: { id?: string; altText?: string }; multiImage?: { images?: unknown } }
      | undefined;
    let images: { urn: string; altText: string | null }[] = [];
    if (content?.media && content.multiImage)
      return error(422, 0, "UNPROCESSABLE_ENTITY", "ERROR :: /content :: only one content type");
    if (content?.media) {
      images = [{ urn: String(content.media.id ?? ""), altText: content.media.altText ?? null }];
    } else if (content?.multiImage) {
      const listed = content.multiImage.images;
      if (!Array.isArray(listed) || listed.length < 2 || listed.length > 20)
        return error(
          422,
          0,
          "UNPROCESSABLE_ENTITY",
          "ERROR :: /content/multiImage/images :: a multi-image post has 2 to 20 images",
        );
      images = listed.map((i: { id?: unknown; altText?: unknown }) => ({
        urn: String(i?.id ?? ""),
        altText: typeof i?.altText === "string" ? i.altText : null,
      }));
    }
    for (const image of images) {
      if (!this.images.get(image.urn)?.bytes)
        return error(400, 0, "INVALID_CONTENT", `The image ${image.urn} has not been uploaded`);
      if (image.altText !== null && image.altText.length > 4086)
        return error(422, 0, "UNPROCESSABLE_ENTITY", "ERROR :: altText :: longer than 4086 characters");
    }
    const since = this.#now() - DAY_MS;
    const times = (this.#postTimes.get(grant.userId) ?? []).filter((t) => t > since);
    this.#postTimes.set(grant.userId, times);
    if (times.length >= this.postsPerDay)
      return error(
        429,
        0,
        "TOO_MANY_REQUESTS",
        "Resource level throttle limit for calls to this resource is reached",
      );
    times.push(this.#now());
    const urn = `urn:li:share:${this.#nextId++}`;
    this.posts.push({
      urn,
      author,
      commentary: b.commentary as string,
      imageUrn: images[0]?.urn ?? null,
      altText: images[0]?.altText ?? null,
      images,
      visibility: b.visibility as string,
      version,
      createdAt: this.#now(),
    });
    return { status: 201, headers: { "x-restli-id": urn, "x-linkedin-id": urn }, text: "" };
  }

  /**
   * A comment by the member on an existing post: `actor` must be the member, `object` the post in the
   * path; answers 201 with the comment (its commentUrn) and the URN in x-restli-id.
   */
  #comment(grant: FakeGrant, target: string, body: unknown): FakeAnswer {
    if (!grant.scopes.includes("w_member_social"))
      return error(403, 100, "ACCESS_DENIED", "Not enough permissions to create a comment");
    const b = (body ?? {}) as { actor?: unknown; object?: unknown; message?: { text?: unknown } };
    const actor = `urn:li:person:${grant.userId}`;
    if (b.actor !== actor)
      return error(403, 100, "ACCESS_DENIED", "Not enough permissions to comment as this actor");
    const post = this.posts.find((p) => p.urn === target);
    if (!post) return error(404, 0, "NOT_FOUND", `${target} does not exist`);
    if (b.object !== undefined && b.object !== target)
      return error(400, 0, "ILLEGAL_ARGUMENT", "object must be the entity in the path");
    const text = b.message?.text;
    if (typeof text !== "string" || text.length === 0 || [...text].length > COMMENT_MAX_LENGTH)
      return error(
        422,
        0,
        "UNPROCESSABLE_ENTITY",
        `ERROR :: /message/text :: 1 to ${COMMENT_MAX_LENGTH} characters`,
      );
    const activity = `urn:li:activity:${post.urn.split(":").at(-1)}`;
    const urn = `urn:li:comment:(${activity},${this.#nextId++})`;
    const createdAt = this.#now();
    this.comments.push({ urn, object: target, actor, text, createdAt });
    return {
      status: 201,
      headers: { "x-restli-id": urn },
      json: {
        actor,
        object: activity,
        commentUrn: urn,
        id: urn.slice(urn.lastIndexOf(",") + 1, -1),
        message: { text },
        created: { actor, time: createdAt },
        lastModified: { actor, time: createdAt },
      },
    };
  }

  /**
   * The author finder: the member's own posts (another's are refused), newest made first, `count` a page
   * (10 by default, 100 at most) from `start`, with a next link while more follow.
   */
  #findByAuthor(grant: FakeGrant, request: FakeRequest): FakeAnswer {
    const query = request.url.searchParams;
    if (query.get("q") !== "author") return error(400, 0, "ILLEGAL_ARGUMENT", "q must name a finder");
    if (!grant.scopes.includes("r_member_social"))
      return error(403, 100, "ACCESS_DENIED", "Not enough permissions to access: posts.FINDER-author");
    const author = query.get("author");
    if (author !== `urn:li:person:${grant.userId}`)
      return error(403, 100, "ACCESS_DENIED", "Not enough permissions to read this author's posts");
    const count = Number(query.get("count") ?? 10);
    const start = Number(query.get("start") ?? 0);
    if (!Number.isInteger(count) || count < 1 || count > 100 || !Number.isInteger(start) || start < 0)
      return error(400, 0, "ILLEGAL_ARGUMENT", "count must be from 1 to 100 and start at least 0");
    this.finderReads.push(Object.fromEntries(query));
    const mine = this.posts.filter((p) => p.author === author).reverse();
    const elements = mine.slice(start, start + count).map((p) => ({
      id: p.urn,
      author: p.author,
      commentary: p.commentary,
      visibility: p.visibility,
      lifecycleState: "PUBLISHED",
      lifecycleStateInfo: { isEditedByAuthor: false },
      isReshareDisabledByAuthor: false,
      distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
      createdAt: p.createdAt,
      publishedAt: p.createdAt,
      lastModifiedAt: p.createdAt,
      ...(p.images.length > 0 && { content: contentOf(p.images) }),
    }));
    const next = new URLSearchParams(query);
    next.set("start", String(start + count));
    const links =
      start + count < mine.length
        ? [{ type: "application/json", rel: "next", href: `/rest/posts?${next}` }]
        : [];
    return { status: 200, json: { paging: { start, count, links, total: mine.length }, elements } };
  }
}

function contentOf(images: readonly { urn: string; altText: string | null }[]) {
  const listed = images.map((i) => ({ id: i.urn, ...(i.altText !== null && { altText: i.altText }) }));
  return listed.length === 1 ? { media: listed[0] } : { multiImage: { images: listed } };
}

function error(status: number, serviceErrorCode: number, code: string, message: string): FakeAnswer {
  return { status, json: { status, serviceErrorCode, code, message } };
}

function safeJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}
