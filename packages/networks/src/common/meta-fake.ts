import { randomBytes } from "node:crypto";
import { startOAuthFake } from "./fake-oauth.ts";
import type { FakeAnswer, FakeRequest } from "./fake-server.ts";
import { listMetaPosts, metaFakeTime } from "./meta-fake-listing.ts";

/*
 * A stateful fake of one of Meta's Graph APIs that publish through media containers (Threads,
 * Instagram), as Meta documents them, on a loopback port: the login (an authorize page whose consent
 * form redirects back with a code or error=access_denied; the code traded for a one-hour token; that
 * token traded for a 60-day one; a long-lived token refreshed with rotation), the account (GET /me),
 * containers (made from text or from a media URL the fake fetches itself, as Meta does; IN_PROGRESS
 * while held, FINISHED, PUBLISHED, EXPIRED, ERROR), publishing a container once, the publishing limit
 * per 24 hours (error 9 / 2207042), the account's posts listed newest first with cursor paging
 * (meta-fake-listing.ts), a post's lifetime insights (GET /{media-id}/insights, with the
 * network's insights scope), throttling (error 17 with X-Business-Use-Case-Usage), and tokens
 * that expire or are revoked (error 190). Each network's fake (threads/fake, instagram/fake) sets the
 * names that differ.
 *
 * Rich posts, as each network documents them: carousels (item containers made with
 * is_carousel_item=true, then a CAROUSEL container naming them in `children`, each one this account's,
 * an item, FINISHED and used once, their count within the network's bounds), `alt_text` on image
 * containers (and on video ones where the network takes it), replies (Threads' `reply_to_id`, with
 * threads_manage_replies; listed at GET /{user}/replies with threads_read_replies, never among the
 * account's threads), polls (Threads' `poll_attachment` on a TEXT post: 2–4 options of 1–25
 * characters) and comments (Instagram's POST /{ig-media-id}/comments with
 * instagram_business_manage_comments). Without the scope a call needs it is refused with error 10.
 */

export interface MetaFakeShape {
  /** Threads or Instagram, as pages and errors say it. */
  name: string;
  /** API version prefix, e.g. /v1.0. */
  version: string;
  /** Edge that makes containers (threads, media), publishes them (threads_publish, media_publish), lists posts. */
  createEdge: string;
  publishEdge: string;
  listEdge: string;
  limitEdge: string;
  /** Graph's node type of a post, as its errors name it (ThreadsMedia, IGMedia). */
  mediaNode: string;
  statusField: string;
  textField: string;
  /** Grant types of the long-lived exchange and of its refresh. */
  exchangeGrant: string;
  refreshGrant: string;
  scopes: readonly string[];
  /** Posts per 24 hours (Threads 250, Instagram 50). */
  postsPerDay: number;
  /** Whether a container may be text alone (Threads) or needs an image or video (Instagram). */
  textOnly: boolean;
  /** How the code exchange answers: flat (Threads) or inside data[] (Instagram). */
  wrapCodeAnswer: boolean;
  /** The scope GET /{media-id}/insights needs, and the lifetime metrics it knows for a post. */
  insightsScope: string;
  insightMetrics: readonly string[];
  /** Most items in a carousel (Threads 20, Instagram 10); the fewest is 2 on both. */
  maxCarouselItems: number;
  /** Which media types take `alt_text` (Threads: IMAGE and VIDEO; Instagram: IMAGE). */
  altTextTypes: readonly string[];
  /** The media type of a video carousel item (VIDEO on both) and of a video post (Threads VIDEO, Instagram REELS). */
  videoType: string;
  /** Replies (`reply_to_id`): the scope making one needs, and the one reading them; null: no replies. */
  replies: { scope: string; readScope: string } | null;
  /** Whether a TEXT post takes `poll_attachment` (Threads). */
  polls: boolean;
  /** Comments on a post (POST /{media-id}/comments): the scope they need; null when the API has none. */
  commentsScope: string | null;
  permalink(username: string, id: string): string;
}

export interface MetaFakeUser {
  id: string;
  username: string;
  followers: number;
}

export interface MetaFakeToken {
  token: string;
  userId: string;
  scopes: string[];
  kind: "short" | "long";
  expiresAt: number;
  revoked: boolean;
}

export interface MetaFakeContainer {
  id: string;
  userId: string;
  mediaType: string;
  text: string;
  mediaUrl: string | null;
  status: "IN_PROGRESS" | "FINISHED" | "PUBLISHED" | "EXPIRED" | "ERROR";
  errorMessage: string | null;
  /** Made with is_carousel_item=true: it can only be a carousel's child, never published alone. */
  carouselItem?: boolean;
  /** A carousel item already named as a child of a carousel container. */
  usedBy?: string;
  alt?: string | null;
  /** A CAROUSEL container's items, in order. */
  children?: MetaFakeContainer[];
  /** The post this one replies to (`reply_to_id`). */
  replyTo?: string | null;
  /** The poll's options (`poll_attachment`), in order. */
  poll?: string[] | null;
}

/** One item of a published carousel. */
export interface MetaFakeItem {
  mediaType: string;
  mediaUrl: string | null;
  alt: string | null;
}

/** A comment on a post (Instagram's /{media-id}/comments). */
export interface MetaFakeComment {
  id: string;
  mediaId: string;
  userId: string;
  text: string;
  at: number;
}

export interface MetaFakePost {
  id: string;
  userId: string;
  containerId: string;
  mediaType: string;
  text: string;
  mediaUrl: string | null;
  permalink: string;
  at: number;
  /** Lifetime insights by metric name (views, likes, reach, …), as tests set them; absent ones are 0. */
  insights: Record<string, number>;
  /** The image's or video's alt text, where it was given. */
  alt?: string | null;
  /** A carousel's items, in order. */
  children?: MetaFakeItem[];
  /** The post this one replies to (a Threads reply). */
  replyTo?: string | null;
  /** The poll's options, in order. */
  poll?: string[] | null;
}

const DAY_MS = 24 * 60 * 60_000;
const LONG_LIVED_SECONDS = 60 * 24 * 60 * 60;
const secret = () => randomBytes(24).toString("base64url");
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class MetaFake {
  readonly url: string;
  readonly shape: MetaFakeShape;
  readonly apps = new Map<string, string>();
  readonly users = new Map<string, MetaFakeUser>();
  readonly tokens: MetaFakeToken[] = [];
  readonly containers = new Map<string, MetaFakeContainer>();
  readonly posts: MetaFakePost[] = [];
  readonly comments: MetaFakeComment[] = [];
  /** Each token request: its grant type and status. */
  readonly tokenRequests: { grantType: string; status: number }[] = [];
  /** How often each container's status was read. */
  readonly statusReads = new Map<string, number>();
  /** Publishing calls made, with their container, whatever they answered. */
  readonly publishCalls: string[] = [];
  /** Each read of an account's posts (GET /{user}/threads, /{user}/media): its query. */
  readonly listings: Record<string, string>[] = [];
  signedIn: string | null = null;
  /** New containers stay IN_PROGRESS until `release()` (media Meta is still processing). */
  holdContainers = false;
  /** The next this many API calls are throttled (error 17). */
  throttledCalls = 0;
  /** Lifetime of the long-lived tokens issued from now on (Meta: 60 days). */
  longLivedSeconds = LONG_LIVED_SECONDS;
  /** Posts a user may publish per 24 hours; lower it to run into the limit. */
  postsPerDay: number;
  readonly #pending = new Map<
    string,
    { clientId: string; redirectUri: string; scopes: string[]; state: string; userId: string }
  >();
  readonly #codes = new Map<
    string,
    { clientId: string; redirectUri: string; scopes: string[]; userId: string }
  >();
  readonly #now: () => number;
  readonly #close: () => Promise<void>;
  #nextId = 17_841_400_000_000_000n;

  private constructor(url: string, close: () => Promise<void>, shape: MetaFakeShape, now: () => number) {
    this.url = url;
    this.#close = close;
    this.shape = shape;
    this.postsPerDay = shape.postsPerDay;
    this.#now = now;
  }

  static async start(
    shape: MetaFakeShape,
    options: { port?: number; now?: () => number } = {},
  ): Promise<MetaFake> {
    return startOAuthFake(
      options.port,
      (url, close) => new MetaFake(url, close, shape, options.now ?? Date.now),
      (fake, request) => fake.#handle(request),
    );
  }

  close(): Promise<void> {
    return this.#close();
  }

  addApp(): { clientId: string; clientSecret: string } {
    const clientId = String(this.#nextId++);
    const clientSecret = secret();
    this.apps.set(clientId, clientSecret);
    return { clientId, clientSecret };
  }

  addUser(user: { username: string; followers?: number }): MetaFakeUser {
    const made = { id: String(this.#nextId++), username: user.username, followers: user.followers ?? 0 };
    this.users.set(made.id, made);
    return made;
  }

  signIn(user: MetaFakeUser): void {
    this.signedIn = user.id;
  }

  /** The user removed the app: every token of theirs stops working. */
  revokeAccess(user: MetaFakeUser): void {
    for (const t of this.tokens) if (t.userId === user.id) t.revoked = true;
  }

  /** Every token issued so far ends now (as 60 days passing would do). */
  expireTokens(): void {
    for (const t of this.tokens) t.expiresAt = Math.min(t.expiresAt, this.#now());
  }

  /** Containers held IN_PROGRESS are FINISHED now. */
  release(): void {
    this.holdContainers = false;
    for (const c of this.containers.values()) if (c.status === "IN_PROGRESS") c.status = "FINISHED";
  }

  postsOf(user: MetaFakeUser): MetaFakePost[] {
    return this.posts.filter((p) => p.userId === user.id);
  }

  async #handle(request: FakeRequest): Promise<FakeAnswer> {
    const { pathname } = request.url;
    const form = () => new URLSearchParams(new TextDecoder().decode(request.body));
    if (request.method === "GET" && pathname === "/oauth/authorize") return this.#authorize(request);
    if (request.method === "POST" && pathname === "/oauth/consent") return this.#consent(form());
    if (request.method === "POST" && pathname === "/oauth/access_token")
      return this.#recorded(form(), (f) => this.#code(f));
    if (request.method === "GET" && pathname === "/access_token") {
      return this.#recorded(request.url.searchParams, (q) => this.#exchange(q));
    }
    if (request.method === "GET" && pathname === "/refresh_access_token") {
      return this.#recorded(request.url.searchParams, (q) => this.#refresh(q));
    }
    if (!pathname.startsWith(`${this.shape.version}/`)) return graphError(404, 100, "Unknown path");
    const answer = await this.#api(request, pathname.slice(this.shape.version.length), form);
    answer.headers = {
      "x-app-usage": JSON.stringify({ call_count: 1, total_cputime: 1, total_time: 1 }),
      ...answer.headers,
    };
    return answer;
  }

  #recorded(params: URLSearchParams, run: (p: URLSearchParams) => FakeAnswer): FakeAnswer {
    const answer = run(params);
    this.tokenRequests.push({ grantType: params.get("grant_type") ?? "", status: answer.status });
    return answer;
  }

  #authorize(request: FakeRequest): FakeAnswer {
    const q = request.url.searchParams;
    const problems: string[] = [];
    const clientId = q.get("client_id") ?? "";
    if (!this.apps.has(clientId)) problems.push("Invalid app ID");
    if (q.get("response_type") !== "code") problems.push("response_type must be code");
    const redirectUri = q.get("redirect_uri") ?? "";
    if (!/^https?:\/\//.test(redirectUri)) problems.push("redirect_uri is missing");
    const scopes = (q.get("scope") ?? "").split(",").filter(Boolean);
    const unknown = scopes.filter((s) => !this.shape.scopes.includes(s));
    if (scopes.length === 0 || unknown.length > 0) problems.push(`Invalid scope: ${unknown.join(",")}`);
    const state = q.get("state") ?? "";
    if (problems.length > 0) return page(400, "Something went wrong", problems.join("; "));
    if (!this.signedIn) return page(401, `Log in to ${this.shape.name}`, "No one is logged in.");
    const id = secret();
    this.#pending.set(id, { clientId, redirectUri, scopes, state, userId: this.signedIn });
    return page(
      200,
      `Allow access to ${this.shape.name}`,
      `The app wants: ${scopes.join(", ")}.`,
      `<form method="post" action="/oauth/consent"><input type="hidden" name="request" value="${id}">` +
        `<button name="decision" value="allow">Allow</button> <button name="decision" value="deny">Cancel</button></form>`,
    );
  }

  #consent(form: URLSearchParams): FakeAnswer {
    const id = form.get("request") ?? "";
    const pending = this.#pending.get(id);
    if (!pending) return page(400, "Something went wrong", "This request is unknown or used.");
    this.#pending.delete(id);
    const back = new URL(pending.redirectUri);
    back.searchParams.set("state", pending.state);
    if (form.get("decision") !== "allow") {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_reason", "user_denied");
      back.searchParams.set("error_description", "Permissions error");
    } else {
      const code = secret();
      this.#codes.set(code, { ...pending });
      // Meta appends #_ to the redirect; browsers drop fragments when requesting, so it is harmless.
      back.searchParams.set("code", code);
    }
    return { status: 302, headers: { location: back.href }, text: "" };
  }

  #code(form: URLSearchParams): FakeAnswer {
    if (form.get("grant_type") !== "authorization_code") return oauthError(400, "Unsupported grant type");
    const clientId = form.get("client_id") ?? "";
    if (this.apps.get(clientId) !== form.get("client_secret"))
      return oauthError(400, "Error validating client secret.");
    const issued = this.#codes.get(form.get("code") ?? "");
    this.#codes.delete(form.get("code") ?? "");
    if (!issued || issued.clientId !== clientId || issued.redirectUri !== form.get("redirect_uri")) {
      return oauthError(400, "Invalid verification code format.");
    }
    const token = this.#issue(issued.userId, issued.scopes, "short", 3600);
    const flat = { access_token: token.token, user_id: issued.userId, permissions: issued.scopes.join(",") };
    return { status: 200, json: this.shape.wrapCodeAnswer ? { data: [flat] } : flat };
  }

  #exchange(q: URLSearchParams): FakeAnswer {
    if (q.get("grant_type") !== this.shape.exchangeGrant) return oauthError(400, "Unsupported grant type");
    if (![...this.apps.values()].includes(q.get("client_secret") ?? "")) {
      return oauthError(400, "Error validating client secret.");
    }
    const short = this.#valid(q.get("access_token") ?? "");
    if (short?.kind !== "short") return oauthError(400, "Invalid OAuth access token.", 190);
    const long = this.#issue(short.userId, short.scopes, "long", this.longLivedSeconds);
    return {
      status: 200,
      json: { access_token: long.token, token_type: "bearer", expires_in: this.longLivedSeconds },
    };
  }

  /** A long-lived token renewed for 60 more days; the one used stops working. */
  #refresh(q: URLSearchParams): FakeAnswer {
    if (q.get("grant_type") !== this.shape.refreshGrant) return oauthError(400, "Unsupported grant type");
    const old = this.#valid(q.get("access_token") ?? "");
    if (old?.kind !== "long") return oauthError(400, "Invalid OAuth access token.", 190);
    old.revoked = true;
    const next = this.#issue(old.userId, old.scopes, "long", LONG_LIVED_SECONDS);
    return {
      status: 200,
      json: { access_token: next.token, token_type: "bearer", expires_in: LONG_LIVED_SECONDS },
    };
  }

  #issue(userId: string, scopes: string[], kind: "short" | "long", seconds: number): MetaFakeToken {
    const token = {
      token: secret(),
      userId,
      scopes,
      kind,
      expiresAt: this.#now() + seconds * 1000,
      revoked: false,
    };
    this.tokens.push(token);
    return token;
  }

  #valid(token: string): MetaFakeToken | null {
    const found = this.tokens.find((t) => t.token === token);
    return found && !found.revoked && found.expiresAt > this.#now() ? found : null;
  }

  async #api(request: FakeRequest, path: string, form: () => URLSearchParams): Promise<FakeAnswer> {
    const header = request.headers.get("authorization") ?? "";
    const given = header.startsWith("Bearer ")
      ? header.slice(7)
      : (request.url.searchParams.get("access_token") ?? "");
    const known = this.tokens.find((t) => t.token === given);
    if (!known) return graphError(400, 190, "Invalid OAuth access token - Cannot parse access token");
    if (known.revoked)
      return graphError(
        400,
        190,
        "Error validating access token: The user has not authorized application.",
        460,
      );
    if (known.expiresAt <= this.#now())
      return graphError(400, 190, "Error validating access token: Session has expired.", 463);
    if (this.throttledCalls > 0) {
      this.throttledCalls--;
      return {
        ...graphError(400, 17, "User request limit reached"),
        headers: {
          "x-business-use-case-usage": JSON.stringify({
            [known.userId]: [
              {
                type: "pages",
                call_count: 100,
                total_cputime: 10,
                total_time: 10,
                estimated_time_to_regain_access: 15,
              },
            ],
          }),
        },
      };
    }
    const user = this.users.get(known.userId)!;
    const q = request.url.searchParams;
    const segments = path.split("/").filter(Boolean);
    if (request.method === "GET" && path === "/me") {
      return {
        status: 200,
        json: { id: user.id, user_id: user.id, username: user.username, followers_count: user.followers },
      };
    }
    const [first, edge] = segments;
    if (first === user.id && edge === this.shape.createEdge && request.method === "POST") {
      if (!known.scopes.some((s) => /content_publish/.test(s)))
        return graphError(403, 10, "Application does not have permission for this action");
      return this.#makeContainer(user, known, form());
    }
    if (first === user.id && edge === "replies" && this.shape.replies && request.method === "GET") {
      if (!known.scopes.includes(this.shape.replies.readScope))
        return graphError(
          403,
          10,
          `Application does not have permission for this action (${this.shape.replies.readScope})`,
        );
      this.listings.push(Object.fromEntries(q));
      return this.#listing(user, q, (p) => Boolean(p.replyTo), `${user.id}/replies`);
    }
    if (
      edge === "comments" &&
      segments.length === 2 &&
      this.shape.commentsScope &&
      request.method === "POST"
    ) {
      const post = this.posts.find((p) => p.id === first);
      if (post) return this.#comment(known, post, form());
    }
    if (first === user.id && edge === this.shape.publishEdge && request.method === "POST") {
      return this.#publish(user, form().get("creation_id") ?? "");
    }
    if (first === user.id && edge === this.shape.listEdge && request.method === "GET") {
      this.listings.push(Object.fromEntries(q));
      // Replies are the account's too, but they are listed at /replies, not among its posts.
      return this.#listing(user, q, (p) => !p.replyTo, `${user.id}/${edge}`);
    }
    if (first === user.id && edge === this.shape.limitEdge && request.method === "GET") {
      return {
        status: 200,
        json: {
          data: [
            {
              quota_usage: this.#today(user).length,
              config: { quota_total: this.postsPerDay, quota_duration: 86400 },
            },
          ],
        },
      };
    }
    if (request.method === "GET" && edge === "insights" && segments.length === 2) {
      const post = this.posts.find((p) => p.id === first && p.userId === user.id);
      if (post) return this.#insights(known, post, q.get("metric") ?? "");
    }
    if (request.method === "GET" && segments.length === 1) {
      const container = this.containers.get(first!);
      if (container && container.userId === user.id) {
        this.statusReads.set(container.id, (this.statusReads.get(container.id) ?? 0) + 1);
        return {
          status: 200,
          json: {
            id: container.id,
            [this.shape.statusField]: container.status,
            ...(container.errorMessage && { error_message: container.errorMessage }),
          },
        };
      }
      const post = this.posts.find((p) => p.id === first && p.userId === user.id);
      if (post)
        return {
          status: 200,
          json: { id: post.id, permalink: post.permalink, timestamp: metaFakeTime(post.at) },
        };
    }
    return graphError(
      400,
      100,
      `Unsupported ${request.method} request. Object with ID '${first}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
      33,
    );
  }

  #listing(
    user: MetaFakeUser,
    q: URLSearchParams,
    which: (p: MetaFakePost) => boolean,
    path: string,
  ): FakeAnswer {
    return listMetaPosts({
      // Newest first by when each was published; of two at once, the later made first.
      posts: this.postsOf(user)
        .filter(which)
        .reverse()
        .sort((a, b) => b.at - a.at)
        .map((p) => ({ ...p, username: user.username })),
      query: q,
      textField: this.shape.textField,
      nodeType: this.shape.mediaNode,
      address: `${this.url}${this.shape.version}/${path}`,
    });
  }

  /** POST /{media-id}/comments?message=…: a comment by the account on a post (Instagram). */
  #comment(token: MetaFakeToken, post: MetaFakePost, form: URLSearchParams): FakeAnswer {
    const scope = this.shape.commentsScope!;
    if (!token.scopes.includes(scope))
      return graphError(403, 10, `Application does not have permission for this action (${scope})`);
    const message = form.get("message") ?? "";
    if (message.trim() === "") return graphError(400, 100, "The parameter message is required.");
    if ([...message].length > 2200)
      return graphError(400, 100, "The comment is longer than 2200 characters.");
    const comment = {
      id: String(this.#nextId++),
      mediaId: post.id,
      userId: token.userId,
      text: message,
      at: this.#now(),
    };
    this.comments.push(comment);
    return { status: 200, json: { id: comment.id } };
  }

  /** GET /{media-id}/insights?metric=a,b: each metric's lifetime value, as Meta documents the answer. */
  #insights(token: MetaFakeToken, post: MetaFakePost, metric: string): FakeAnswer {
    if (!token.scopes.includes(this.shape.insightsScope))
      return graphError(403, 10, "Application does not have permission for this action");
    const names = metric.split(",").filter(Boolean);
    const unknown = names.find((n) => !this.shape.insightMetrics.includes(n));
    if (names.length === 0 || unknown !== undefined)
      return graphError(
        400,
        100,
        `(#100) metric[0] must be one of the following values: ${this.shape.insightMetrics.join(", ")}`,
      );
    const data = names.map((name) => ({
      name,
      period: "lifetime",
      values: [{ value: post.insights[name] ?? 0 }],
      title: name[0]!.toUpperCase() + name.slice(1),
      description: `The ${name} of the media.`,
      id: `${post.id}/insights/${name}/lifetime`,
    }));
    return { status: 200, json: { data } };
  }

  async #makeContainer(user: MetaFakeUser, token: MetaFakeToken, form: URLSearchParams): Promise<FakeAnswer> {
    const { shape } = this;
    const carouselItem = form.get("is_carousel_item") === "true";
    const mediaType =
      form.get("media_type") ??
      (form.get("video_url") ? shape.videoType : form.get("children") ? "" : "IMAGE");
    const text = form.get(shape.textField) ?? "";
    const mediaUrl = form.get("image_url") ?? form.get("video_url");
    const alt = form.get("alt_text");
    if (mediaType === "TEXT" && !shape.textOnly)
      return graphError(400, 100, "The parameter image_url is required.");
    if (mediaType === "CAROUSEL") return this.#makeCarousel(user, token, form, text);
    if (mediaType !== "TEXT" && !mediaUrl)
      return graphError(400, 100, "The parameter image_url or video_url is required.");
    const video = mediaType === shape.videoType || (carouselItem && mediaType === "VIDEO");
    if (mediaType !== "TEXT" && mediaType !== "IMAGE" && !video)
      return graphError(
        400,
        100,
        `The parameter media_type must be one of the documented values, not ${mediaType}.`,
      );
    if (carouselItem && mediaType === "TEXT")
      return graphError(400, 100, "A carousel item must be an IMAGE or a VIDEO.");
    if (alt !== null) {
      if (!shape.altTextTypes.includes(video ? "VIDEO" : mediaType))
        return graphError(400, 100, `The parameter alt_text is not supported for ${mediaType} media.`);
      if ([...alt].length > 1000) return graphError(400, 100, "The alt_text is longer than 1000 characters.");
    }
    const replyTo = this.#replyTarget(token, form);
    if (replyTo && "status" in replyTo) return replyTo;
    const poll = this.#poll(form, mediaType);
    if (poll && "status" in poll) return poll;
    const limit = shape.name === "Threads" ? 500 : 2200;
    if ([...text].length > limit) return graphError(400, 100, `The text is longer than ${limit} characters.`);
    if (mediaUrl) {
      // As Meta does: the media is fetched from its URL now; one it cannot fetch or read is refused.
      const wanted = mediaType === "IMAGE" ? /^image\/(jpeg|png)/ : /^video\//;
      const fetched = await fetch(mediaUrl).catch(() => null);
      const type = fetched?.headers.get("content-type") ?? "";
      await fetched?.arrayBuffer().catch(() => null);
      if (!fetched?.ok || !wanted.test(type)) {
        return graphError(
          400,
          9004,
          "Media download has failed. The media URI doesn't meet our requirements.",
          2207052,
        );
      }
    }
    return this.#container(user, {
      mediaType,
      text,
      mediaUrl,
      carouselItem,
      alt,
      replyTo: replyTo?.id ?? null,
      poll: poll?.options ?? null,
    });
  }

  #container(
    user: MetaFakeUser,
    made: Pick<
      MetaFakeContainer,
      "mediaType" | "text" | "mediaUrl" | "carouselItem" | "alt" | "replyTo" | "poll" | "children"
    >,
  ): FakeAnswer {
    const container: MetaFakeContainer = {
      id: String(this.#nextId++),
      userId: user.id,
      ...made,
      status: this.holdContainers ? "IN_PROGRESS" : "FINISHED",
      errorMessage: null,
    };
    this.containers.set(container.id, container);
    return { status: 200, json: { id: container.id } };
  }

  /** media_type=CAROUSEL: its `children` are this account's unused carousel items, all FINISHED. */
  #makeCarousel(user: MetaFakeUser, token: MetaFakeToken, form: URLSearchParams, text: string): FakeAnswer {
    const ids = (form.get("children") ?? "").split(",").filter(Boolean);
    const { maxCarouselItems } = this.shape;
    if (ids.length < 2 || ids.length > maxCarouselItems)
      return graphError(
        400,
        100,
        `The parameter children must name 2 to ${maxCarouselItems} carousel items; it names ${ids.length}.`,
        2207045,
      );
    const children: MetaFakeContainer[] = [];
    for (const id of ids) {
      const child = this.containers.get(id);
      if (!child || child.userId !== user.id || !child.carouselItem)
        return graphError(
          400,
          100,
          `Invalid parameter: ${id} is not a carousel item of this account.`,
          2207001,
        );
      if (child.usedBy) return graphError(400, 100, `The carousel item ${id} was already used.`, 2207001);
      if (child.status !== "FINISHED")
        return graphError(400, 9007, `The carousel item ${id} is not ready (${child.status}).`, 2207027);
      children.push(child);
    }
    if (form.has("alt_text"))
      return graphError(400, 100, "alt_text goes on each carousel item, not the carousel.");
    const replyTo = this.#replyTarget(token, form);
    if (replyTo && "status" in replyTo) return replyTo;
    if (form.has("poll_attachment"))
      return graphError(400, 100, "A poll can only be attached to a TEXT post.");
    const limit = this.shape.name === "Threads" ? 500 : 2200;
    if ([...text].length > limit) return graphError(400, 100, `The text is longer than ${limit} characters.`);
    const answer = this.#container(user, {
      mediaType: "CAROUSEL",
      text,
      mediaUrl: null,
      replyTo: replyTo?.id ?? null,
      children,
    });
    const id = (answer.json as { id: string }).id;
    for (const child of children) child.usedBy = id;
    return answer;
  }

  /** `reply_to_id`: a post that exists, with the scope replying needs; null when it is not a reply. */
  #replyTarget(token: MetaFakeToken, form: URLSearchParams): { id: string } | FakeAnswer | null {
    const id = form.get("reply_to_id");
    if (id === null) return null;
    const { replies } = this.shape;
    if (!replies) return graphError(400, 100, "The parameter reply_to_id is not supported.");
    if (!token.scopes.includes(replies.scope))
      return graphError(403, 10, `Application does not have permission for this action (${replies.scope})`);
    if (!this.posts.some((p) => p.id === id))
      return graphError(400, 100, `Invalid parameter: reply_to_id ${id} is not a post.`, 4279009);
    return { id };
  }

  /** `poll_attachment`: {option_a, option_b[, option_c[, option_d]]}, on a TEXT post only. */
  #poll(form: URLSearchParams, mediaType: string): { options: string[] } | FakeAnswer | null {
    const raw = form.get("poll_attachment");
    if (raw === null) return null;
    if (!this.shape.polls) return graphError(400, 100, "The parameter poll_attachment is not supported.");
    if (mediaType !== "TEXT") return graphError(400, 100, "A poll can only be attached to a TEXT post.");
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return graphError(400, 100, "poll_attachment must be a JSON object.");
    }
    const keys = ["option_a", "option_b", "option_c", "option_d"];
    const given = parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
    const unknown = Object.keys(given).filter((k) => !keys.includes(k));
    const options = keys.map((k) => given[k]).filter((v) => v !== undefined);
    const contiguous = keys.slice(0, options.length).every((k) => given[k] !== undefined);
    if (
      unknown.length > 0 ||
      !contiguous ||
      options.length < 2 ||
      options.some((o) => typeof o !== "string" || [...o].length < 1 || [...o].length > 25)
    ) {
      return graphError(
        400,
        100,
        "poll_attachment must hold option_a and option_b (and optionally option_c, option_d), each 1 to 25 characters.",
      );
    }
    return { options: options as string[] };
  }

  #publish(user: MetaFakeUser, creationId: string): FakeAnswer {
    this.publishCalls.push(creationId);
    const container = this.containers.get(creationId);
    if (!container || container.userId !== user.id) return graphError(400, 100, "Invalid parameter", 2207001);
    if (container.status === "PUBLISHED")
      return graphError(400, 100, "The media has already been published.", 2207006);
    if (container.carouselItem)
      return graphError(400, 100, "A carousel item is published through its carousel.", 2207001);
    if (container.status !== "FINISHED") return graphError(400, 9007, "Media ID is not available", 2207027);
    if (this.#today(user).length >= this.postsPerDay) {
      return graphError(
        400,
        9,
        "Application request limit reached",
        2207042,
        "You have reached the maximum number of posts that is allowed to be published in 24 hours.",
      );
    }
    container.status = "PUBLISHED";
    const id = String(this.#nextId++);
    const post: MetaFakePost = {
      id,
      userId: user.id,
      containerId: container.id,
      mediaType: container.mediaType,
      text: container.text,
      mediaUrl: container.mediaUrl,
      permalink: this.shape.permalink(user.username, id),
      at: this.#now(),
      insights: {},
      alt: container.alt ?? null,
      replyTo: container.replyTo ?? null,
      poll: container.poll ?? null,
      ...(container.children && {
        children: container.children.map((c) => ({
          mediaType: c.mediaType,
          mediaUrl: c.mediaUrl,
          alt: c.alt ?? null,
        })),
      }),
    };
    for (const child of container.children ?? []) child.status = "PUBLISHED";
    this.posts.push(post);
    return { status: 200, json: { id } };
  }

  #today(user: MetaFakeUser): MetaFakePost[] {
    const since = this.#now() - DAY_MS;
    return this.postsOf(user).filter((p) => p.at > since);
  }
}

function graphError(
  status: number,
  code: number,
  message: string,
  subcode?: number,
  userMessage?: string,
): FakeAnswer {
  return {
    status,
    json: {
      error: {
        message,
        type: code === 190 ? "OAuthException" : "IGApiException",
        code,
        ...(subcode !== undefined && { error_subcode: subcode }),
        ...(userMessage !== undefined && { error_user_msg: userMessage }),
        fbtrace_id: randomBytes(8).toString("base64url"),
      },
    },
  };
}

function oauthError(status: number, message: string, code = 100): FakeAnswer {
  return { status, json: { error: { message, type: "OAuthException", code, fbtrace_id: "fake" } } };
}

function page(status: number, title: string, message: string, extra = ""): FakeAnswer {
  return {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
    text: `<!doctype html><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${extra}`,
  };
}
