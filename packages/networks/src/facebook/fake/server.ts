import { randomBytes } from "node:crypto";
import { type FakeApp, FakeOAuth, OAuthNetworkFake, startOAuthFake } from "../../common/fake-oauth.ts";
import { type FakeAnswer, type FakeRequest, formDataOf, isJpegPngOrGif } from "../../common/fake-server.ts";

/*
 * A stateful fake of Facebook Login and the Graph API for Pages on a loopback port, for tests that
 * cannot reach Meta: the login dialog (/{version}/dialog/oauth, comma-separated permissions), the token
 * endpoint (/{version}/oauth/access_token: a code for a short-lived user token, fb_exchange_token for a
 * 60-day one; no refresh tokens), /me/accounts (the user's Pages with a Page token each), a Page's
 * /feed, /photos and /videos (the file in `source`; the video is the post, its id plain digits), the
 * Page's own posts newest first (GET /{page-id}/posts with `since`, `limit` and cursors), a
 * video's permalink_url, and a post's reactions, comments and shares (GET /{post-id}?fields=…). Meta's
 * habits: errors as `{error: {message, type, code, fbtrace_id}}`, code 190 for a
 * dead token, code 32 with X-Business-Use-Case-Usage for a Page over its limit, code 324 for a photo
 * that is not one, code 352 for a video in a format Facebook does not take. Meta publishes no OpenAPI description: the shapes follow the Graph API documentation.
 *
 * Rich posts, as the Pages API documents them: a photo's alt text (`alt_text_custom`); several photos in
 * one post, each uploaded unpublished (POST /{page-id}/photos with published=false, answered with the
 * photo's id only) and then attached to a feed post (`attached_media[n]={"media_fbid": id}`, each an
 * unpublished photo of this Page used once); and comments as the Page (POST /{post-id}/comments with
 * pages_manage_engagement, else error 200), each read back with its permalink_url.
 */

const DAY_SECONDS = 24 * 60 * 60;

export interface FacebookFakeUser {
  id: string;
  name: string;
  pages: { id: string; name: string; followers: number }[];
}

export interface FacebookFakePost {
  id: string;
  pageId: string;
  message: string;
  photo: FacebookFakePhoto | null;
  /** A post of several photos: each attached photo, in order. */
  photos?: FacebookFakePhoto[];
  /** A video post's file (its id is the video's, without the Page's prefix). */
  video?: { type: string; bytes: number };
  /** When Facebook made it (Unix ms). */
  createdAt: number;
  /** What `?fields=reactions.summary…,comments.summary…,shares` reports; tests set them. */
  reactions: number;
  comments: number;
  shares: number;
}

export interface FacebookFakePhoto {
  type: string;
  bytes: number;
  /** `alt_text_custom`, where it was given. */
  alt?: string | null;
}

/** A photo uploaded with published=false, waiting to be attached to a post. */
export interface FacebookFakeUnpublished extends FacebookFakePhoto {
  id: string;
  pageId: string;
  /** The post it was attached to, once it was. */
  attachedTo: string | null;
}

export interface FacebookFakeComment {
  id: string;
  postId: string;
  pageId: string;
  message: string;
  permalink: string;
}

export class FacebookFake extends OAuthNetworkFake<FacebookFakeUser> {
  readonly version: string;
  readonly oauth: FakeOAuth;
  readonly users = new Map<string, FacebookFakeUser>();
  readonly posts: FacebookFakePost[] = [];
  readonly unpublishedPhotos: FacebookFakeUnpublished[] = [];
  readonly comments: FacebookFakeComment[] = [];
  /** Page tokens: which Page, the user whose grant they hang on, and the permissions that grant gave. */
  readonly pageTokens = new Map<string, { pageId: string; userId: string; scopes: readonly string[] }>();
  /** Lifetime of long-lived user tokens issued from now on (Meta: 60 days). */
  longLivedSeconds = 60 * DAY_SECONDS;
  /** The query of every read of a Page's posts (GET /{page-id}/posts), in order. */
  readonly postReads: Record<string, string>[] = [];
  /** Posts a Page may make per hour; lower it to run into Meta's limit. */
  postsPerHour = 200;
  readonly #postTimes = new Map<string, number[]>();
  readonly #now: () => number;
  #nextId = 100_000_000_000_000n;

  private constructor(url: string, version: string, close: () => Promise<void>, now: () => number) {
    super(url, close);
    this.version = version;
    this.#now = now;
    this.oauth = new FakeOAuth({
      name: "Facebook",
      scopes: [
        "pages_show_list",
        "pages_manage_posts",
        "pages_read_engagement",
        "pages_manage_engagement",
        "public_profile",
        "email",
      ],
      scopeSeparator: ",",
      authorizePath: `/${version}/dialog/oauth`,
      consentPath: `/${version}/dialog/consent`,
      pkce: false,
      clientAuth: "form",
      refreshTokenFor: () => false,
      rotate: false,
      // A short-lived user token: one to two hours.
      accessTokenSeconds: 3600,
      now,
    });
  }

  static async start(
    options: { port?: number; now?: () => number; version?: string } = {},
  ): Promise<FacebookFake> {
    return startOAuthFake(
      options.port,
      (url, close) => new FacebookFake(url, options.version ?? "v23.0", close, options.now ?? Date.now),
      (fake, request) => fake.#handle(request),
    );
  }

  addApp(app: Partial<FakeApp> = {}): FakeApp {
    return this.oauth.addApp(app, {
      clientId: () => String(this.#nextId++),
      clientSecret: () => randomBytes(16).toString("hex"),
    });
  }

  addUser(user: { name: string; pages: { name: string; followers?: number }[] }): FacebookFakeUser {
    const made = {
      id: String(this.#nextId++),
      name: user.name,
      pages: user.pages.map((p) => ({
        id: String(this.#nextId++),
        name: p.name,
        followers: p.followers ?? 0,
      })),
    };
    this.users.set(made.id, made);
    return made;
  }

  async #handle(request: FakeRequest): Promise<FakeAnswer> {
    const prefix = `/${this.version}`;
    const { pathname } = request.url;
    if (!pathname.startsWith(`${prefix}/`))
      return graphError(400, 2500, "OAuthException", "Unknown path components");
    const path = pathname.slice(prefix.length);
    const oauth = this.oauth.route(request);
    if (oauth) return oauth;
    if (request.method === "POST" && path === "/oauth/access_token") {
      return this.#token(request, new URLSearchParams(new TextDecoder().decode(request.body)));
    }
    const token = (request.headers.get("authorization") ?? "").replace(/^Bearer /i, "");
    if (request.method === "GET" && path === "/me/accounts") {
      const grant = this.oauth.grantFor(token);
      if (!grant) return invalidToken();
      const user = this.users.get(grant.userId)!;
      const data = user.pages.map((p) => {
        const pageToken = `EAAP${randomBytes(24).toString("base64url")}`;
        this.pageTokens.set(pageToken, { pageId: p.id, userId: user.id, scopes: grant.scopes });
        return {
          id: p.id,
          name: p.name,
          access_token: pageToken,
          category: "Software",
          followers_count: p.followers,
          tasks: ["CREATE_CONTENT", "MANAGE"],
        };
      });
      return { status: 200, json: { data, paging: { cursors: { before: "b", after: "a" } } } };
    }
    const commented = /^\/(\d+_\d+)\/comments$/.exec(path);
    if (request.method === "POST" && commented) return this.#comment(request, token, commented[1]!);
    const read = /^\/(\d+(?:_\d+)?)$/.exec(path);
    if (request.method === "GET" && read) {
      const comment = this.comments.find((c) => c.id === read[1]);
      if (comment) return this.#commentFields(token, comment);
      return this.#postFields(token, read[1]!, request.url.searchParams);
    }
    const listed = /^\/(\d+)\/posts$/.exec(path);
    if (request.method === "GET" && listed)
      return this.#pagePosts(token, listed[1]!, request.url.searchParams);
    const edge = /^\/(\d+)\/(feed|photos|videos)$/.exec(path);
    if (request.method === "POST" && edge)
      return this.#publish(request, token, edge[1]!, edge[2] as "feed" | "photos" | "videos");
    return graphError(400, 100, "GraphMethodException", `Unsupported ${request.method} request.`);
  }

  /**
   * GET /{page-post-id}?fields=…: a post of the Page the token is for, with the summaries asked for
   * (reactions and comments as totals, `shares` only once there are some, as Graph does).
   */
  #postFields(token: string, postId: string, query: URLSearchParams): FakeAnswer {
    const page = this.pageTokens.get(token);
    if (!page || this.oauth.grants.every((g) => g.userId !== page.userId || g.revoked)) return invalidToken();
    const post = this.posts.find((p) => p.id === postId && p.pageId === page.pageId);
    if (!post)
      return graphError(
        400,
        100,
        "GraphMethodException",
        `Unsupported get request. Object with ID '${postId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      );
    const asked = askedFields(query.get("fields") ?? "");
    if (post.video && asked.has("shares"))
      return graphError(
        400,
        100,
        "OAuthException",
        "(#100) Tried accessing nonexisting field (shares) on node type (Video)",
      );
    const summary = (total: number) => ({ data: [], summary: { total_count: total } });
    return {
      status: 200,
      json: {
        id: post.id,
        ...(asked.has("reactions") && { reactions: summary(post.reactions) }),
        ...(asked.has("comments") && { comments: summary(post.comments) }),
        ...(asked.has("shares") && post.shares > 0 && { shares: { count: post.shares } }),
        ...(asked.has("permalink_url") &&
          post.video && { permalink_url: `/${post.pageId}/videos/${post.id}/` }),
      },
    };
  }

  /**
   * GET /{page-id}/posts: the posts the Page made, newest first, with the fields asked for; `since` (Unix
   * seconds) leaves out older ones, `limit` is a page (25 by default, 100 at most), and `after` is the
   * cursor of the next page, given in `paging` with a `next` address while there is one. A photo's
   * caption and a video's description are the post's message, as on Facebook.
   */
  #pagePosts(token: string, pageId: string, query: URLSearchParams): FakeAnswer {
    const page = this.pageTokens.get(token);
    const grant = page && this.oauth.grants.find((g) => g.userId === page.userId && !g.revoked);
    if (!page || !grant) return invalidToken();
    if (page.pageId !== pageId || !grant.scopes.includes("pages_read_engagement"))
      return graphError(
        403,
        10,
        "OAuthException",
        "(#10) This endpoint requires the 'pages_read_engagement' permission",
      );
    const limit = Number(query.get("limit") ?? 25);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return graphError(400, 100, "OAuthException", "(#100) The limit must be from 1 to 100");
    this.postReads.push(Object.fromEntries(query));
    const since = query.has("since") ? Number(query.get("since")) * 1000 : Number.NEGATIVE_INFINITY;
    const mine = this.posts.filter((p) => p.pageId === pageId && p.createdAt >= since).reverse();
    const after = query.get("after");
    const start = after === null ? 0 : Number(Buffer.from(after, "base64url").toString()) + 1;
    const shown = mine.slice(start, start + limit);
    const asked = askedFields(query.get("fields") ?? "id");
    const data = shown.map((p) => ({
      id: p.id,
      ...(asked.has("message") && p.message !== "" && { message: p.message }),
      ...(asked.has("created_time") && { created_time: graphTime(p.createdAt) }),
      ...(asked.has("permalink_url") && {
        permalink_url: p.video
          ? `https://www.facebook.com/${p.pageId}/videos/${p.id}/`
          : `https://www.facebook.com/${p.id}`,
      }),
    }));
    const cursor = (index: number) => Buffer.from(String(index)).toString("base64url");
    const last = start + shown.length - 1;
    const more = last + 1 < mine.length;
    const next = new URLSearchParams(query);
    next.set("after", cursor(last));
    return {
      status: 200,
      json: {
        data,
        ...(shown.length > 0 && {
          paging: {
            cursors: { before: cursor(start), after: cursor(last) },
            ...(more && { next: `${this.url}/${this.version}/${pageId}/posts?${next}` }),
          },
        }),
      },
    };
  }

  /** POST /{post-id}/comments: a comment as the Page, with pages_manage_engagement. */
  #comment(request: FakeRequest, token: string, postId: string): FakeAnswer {
    const page = this.pageTokens.get(token);
    const grant = page && this.oauth.grants.find((g) => g.userId === page.userId && !g.revoked);
    if (!page || !grant) return invalidToken();
    if (!page.scopes.includes("pages_manage_engagement"))
      return graphError(
        403,
        200,
        "OAuthException",
        "(#200) This endpoint requires the 'pages_manage_engagement' permission",
      );
    const post = this.posts.find((p) => p.id === postId);
    if (!post)
      return graphError(400, 100, "GraphMethodException", `Object with ID '${postId}' does not exist.`);
    const message = new URLSearchParams(new TextDecoder().decode(request.body)).get("message") ?? "";
    if (message.trim() === "")
      return graphError(400, 100, "OAuthException", "(#100) Missing message or attachment");
    const local = String(this.#nextId++);
    const comment = {
      id: `${postId.split("_")[1]}_${local}`,
      postId,
      pageId: page.pageId,
      message,
      permalink: `https://www.facebook.com/${postId}?comment_id=${local}`,
    };
    this.comments.push(comment);
    return { status: 200, json: { id: comment.id } };
  }

  #commentFields(token: string, comment: FacebookFakeComment): FakeAnswer {
    if (!this.pageTokens.has(token)) return invalidToken();
    return {
      status: 200,
      json: { id: comment.id, message: comment.message, permalink_url: comment.permalink },
    };
  }

  /** A code for a short-lived user token (the shared OAuth fake), or fb_exchange_token for a 60-day one. */
  #token(request: FakeRequest, form: URLSearchParams): FakeAnswer {
    if (form.get("grant_type") !== "fb_exchange_token") {
      if (!form.has("grant_type")) form.set("grant_type", "authorization_code");
      const answer = this.oauth.token(request, form);
      if (answer.status < 400) return answer;
      const said = answer.json as { error_description: string };
      return graphError(400, 100, "OAuthException", said.error_description);
    }
    const app = this.oauth.apps.get(form.get("client_id") ?? "");
    if (!app || app.clientSecret !== form.get("client_secret"))
      return graphError(400, 1, "OAuthException", "Error validating client secret.");
    const short = this.oauth.grantFor(form.get("fb_exchange_token") ?? "");
    this.oauth.tokenRequests.push({ grantType: "fb_exchange_token", status: short ? 200 : 400 });
    if (!short) return invalidToken();
    const long = {
      ...short,
      accessToken: `EAAL${randomBytes(24).toString("base64url")}`,
      accessExpiresAt: this.#now() + this.longLivedSeconds * 1000,
    };
    this.oauth.grants.push(long);
    return {
      status: 200,
      json: { access_token: long.accessToken, token_type: "bearer", expires_in: this.longLivedSeconds },
    };
  }

  async #publish(
    request: FakeRequest,
    token: string,
    pageId: string,
    edge: "feed" | "photos" | "videos",
  ): Promise<FakeAnswer> {
    const page = this.pageTokens.get(token);
    // A Page token works while the user's grant does (Meta sets it no end of its own).
    if (!page || this.oauth.grants.every((g) => g.userId !== page.userId || g.revoked)) return invalidToken();
    if (page.pageId !== pageId)
      return graphError(
        403,
        200,
        "OAuthException",
        "(#200) The user hasn't authorized the application to perform this action",
      );
    const since = this.#now() - 3600_000;
    const times = (this.#postTimes.get(pageId) ?? []).filter((t) => t > since);
    this.#postTimes.set(pageId, times);
    if (times.length >= this.postsPerHour) {
      return {
        ...graphError(400, 32, "OAuthException", "(#32) Page request limit reached"),
        headers: {
          "x-business-use-case-usage": JSON.stringify({
            [pageId]: [
              {
                type: "pages",
                call_count: 100,
                total_cputime: 10,
                total_time: 10,
                estimated_time_to_regain_access: 12,
              },
            ],
          }),
        },
      };
    }
    let message: string;
    let photo: FacebookFakePost["photo"] = null;
    let photos: FacebookFakeUnpublished[] | undefined;
    if (edge === "feed") {
      const form = new URLSearchParams(new TextDecoder().decode(request.body));
      message = form.get("message") ?? "";
      const attached = attachedMedia(form, this.unpublishedPhotos, pageId);
      if (typeof attached === "string") return graphError(400, 100, "OAuthException", attached);
      if (attached.length > 0) photos = attached;
      if (!message && !photos)
        return graphError(400, 100, "OAuthException", "(#100) Missing message or attachment");
    } else if (edge === "videos") {
      const form = await formDataOf(request);
      const source = form.get("source");
      if (!(source instanceof Blob))
        return graphError(
          400,
          390,
          "OAuthException",
          "(#390) There was a problem uploading your video file. Please try again.",
        );
      const bytes = Buffer.from(await source.arrayBuffer());
      if (!isVideo(bytes))
        return graphError(
          400,
          352,
          "OAuthException",
          "(#352) Sorry, the video file you selected is in a format that we don't support.",
        );
      times.push(this.#now());
      const id = String(this.#nextId++);
      const video = { type: source.type, bytes: bytes.length };
      const description = String(form.get("description") ?? "");
      this.posts.push({
        id,
        pageId,
        message: description,
        photo: null,
        video,
        createdAt: this.#now(),
        reactions: 0,
        comments: 0,
        shares: 0,
      });
      return { status: 200, json: { id } };
    } else {
      const form = await formDataOf(request);
      message = String(form.get("message") ?? "");
      const source = form.get("source");
      if (!(source instanceof Blob))
        return graphError(400, 324, "OAuthException", "(#324) Requires upload file");
      const bytes = Buffer.from(await source.arrayBuffer());
      if (!isJpegPngOrGif(bytes))
        return graphError(400, 324, "OAuthException", "(#324) Missing or invalid image file");
      const alt = form.get("alt_text_custom");
      photo = { type: source.type, bytes: bytes.length, alt: typeof alt === "string" ? alt : null };
      if (form.get("published") === "false") {
        // An unpublished photo is no post: it waits to be attached to one (attached_media).
        const unpublished = { ...photo, id: String(this.#nextId++), pageId, attachedTo: null };
        this.unpublishedPhotos.push(unpublished);
        return { status: 200, json: { id: unpublished.id } };
      }
    }
    times.push(this.#now());
    const postId = `${pageId}_${this.#nextId++}`;
    for (const p of photos ?? []) p.attachedTo = postId;
    this.posts.push({
      id: postId,
      pageId,
      message,
      photo,
      ...(photos && {
        photos: photos.map((p) => ({ type: p.type, bytes: p.bytes, alt: p.alt ?? null })),
      }),
      createdAt: this.#now(),
      reactions: 0,
      comments: 0,
      shares: 0,
    });
    return {
      status: 200,
      json: edge === "feed" ? { id: postId } : { id: String(this.#nextId++), post_id: postId },
    };
  }
}

/**
 * `attached_media[n]={"media_fbid":"…"}`: the Page's unpublished photos, in order, each used once; a
 * message naming what is wrong when one is not.
 */
function attachedMedia(
  form: URLSearchParams,
  unpublished: readonly FacebookFakeUnpublished[],
  pageId: string,
): FacebookFakeUnpublished[] | string {
  const found: FacebookFakeUnpublished[] = [];
  for (let i = 0; form.has(`attached_media[${i}]`); i++) {
    let fbid: unknown;
    try {
      fbid = (JSON.parse(form.get(`attached_media[${i}]`)!) as { media_fbid?: unknown }).media_fbid;
    } catch {
      return `(#100) param attached_media[${i}] must be a JSON object with media_fbid`;
    }
    const photo = unpublished.find((p) => p.id === fbid && p.pageId === pageId);
    if (!photo) return `(#100) param attached_media[${i}] is not an unpublished photo of this Page`;
    if (photo.attachedTo !== null) return `(#100) the photo ${photo.id} is already attached to a post`;
    found.push(photo);
  }
  return found;
}

/** Which summaries `fields` asks for: `reactions.summary(total_count).limit(0)` → reactions. */
function askedFields(fields: string): Set<string> {
  return new Set(fields.split(",").map((f) => f.trim().split(/[.{(]/)[0]!));
}

/** A time as Graph writes it: 2026-11-28T09:30:00+0000. */
function graphTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "+0000");
}

function graphError(status: number, code: number, type: string, message: string): FakeAnswer {
  return {
    status,
    json: { error: { message, type, code, fbtrace_id: randomBytes(8).toString("base64url") } },
  };
}

function invalidToken(): FakeAnswer {
  return graphError(
    400,
    190,
    "OAuthException",
    "Error validating access token: The session has been invalidated.",
  );
}

/** An MP4 or MOV (an `ftyp` box first) or a WebM (EBML header). */
function isVideo(b: Buffer): boolean {
  return (
    b.subarray(4, 8).toString("latin1") === "ftyp" ||
    b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))
  );
}
