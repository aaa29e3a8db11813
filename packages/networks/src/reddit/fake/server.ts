import { randomBytes } from "node:crypto";
import {
  type FakeApp,
  type FakeGrant,
  FakeOAuth,
  OAuthNetworkFake,
  startOAuthFake,
} from "../../common/fake-oauth.ts";
import { type FakeAnswer, type FakeRequest, formDataOf, isJpegPngOrGif } from "../../common/fake-server.ts";

/*
 * A stateful fake of Reddit on a loopback port, for tests that cannot reach Reddit: its site's
 * authorize page and token endpoint (www.reddit.com/api/v1/…: no PKCE, Basic client credentials,
 * one-hour tokens, a refresh token for duration=permanent that does not rotate), and its OAuth API: the
 * account (/api/v1/me), a subreddit's about page, the image lease (/api/media/asset.json) and the upload
 * form it points to, /api/submit (self, link and image posts, with flair_id, nsfw and spoiler),
 * /api/submit_gallery_post.json (a gallery of 2–20 uploaded assets, as JSON), /api/comment (a reply to a
 * post, with the submit scope), a user's submitted posts (newest first, with the history scope) and
 * /api/info (a post's score, comments and crossposts). Reddit's
 * habits: every answer carries X-Ratelimit-Used/-Remaining/-Reset; a used-up window is a 429; a
 * generic User-Agent is throttled with a 429; refusals of a submit come as HTTP 200 with json.errors
 * (RATELIMIT, SUBREDDIT_NOEXIST, NO_LINKS, TOO_LONG). Reddit publishes no OpenAPI description: the
 * shapes follow its API documentation.
 */

/** Reddit's window for the OAuth limit: 600 requests per 10 minutes (100 a minute on average). */
const WINDOW_MS = 10 * 60_000;
const GENERIC_AGENT = /^(?:$|node|undici|python-requests|curl|axios|got)/i;

export interface RedditFakeUser {
  id: string;
  name: string;
  karma: number;
}

export interface RedditFakeSubreddit {
  name: string;
  /** The link flair templates' ids a post may choose; a flair_id outside them is refused. */
  flairs?: string[];
  /** What the subreddit takes: any kind, text (self) only, or links (and images) only. */
  submissionType: "any" | "self" | "link";
  subscribers: number;
}

export interface RedditFakePost {
  id: string;
  userId: string;
  subreddit: string;
  kind: "self" | "link" | "image" | "gallery";
  title: string;
  /** A gallery's images, in order: each upload's key. */
  gallery: string[];
  flairId: string | null;
  nsfw: boolean;
  spoiler: boolean;
  text: string | null;
  url: string | null;
  permalink: string;
  /** When Reddit made it (Unix ms). */
  createdAt: number;
  /** Upvotes less downvotes, comments and crossposts, as /api/info reports them; tests set them. */
  score: number;
  comments: number;
  crossposts: number;
}

export interface RedditFakeComment {
  id: string;
  userId: string;
  /** The fullname replied to (t3_<post id>). */
  parent: string;
  text: string;
  permalink: string;
}

export class RedditFake extends OAuthNetworkFake<RedditFakeUser> {
  readonly oauth: FakeOAuth;
  readonly users = new Map<string, RedditFakeUser>();
  readonly subreddits = new Map<string, RedditFakeSubreddit>();
  readonly posts: RedditFakePost[] = [];
  readonly comments: RedditFakeComment[] = [];
  /** Uploaded images by key, with their type and size. */
  readonly uploads = new Map<string, { type: string; bytes: number }>();
  /** The query of every read of a user's submitted posts, in order. */
  readonly submittedReads: Record<string, string>[] = [];
  /** Every User-Agent the API and token endpoint were called with. */
  readonly userAgents = new Set<string>();
  /** Requests a client may make per 10-minute window; lower it to run into the limit. */
  requestsPerWindow = 600;
  /** While set, a submit is refused with Reddit's RATELIMIT ("… take a break for N minutes"). */
  submitBreakMinutes: number | null = null;
  readonly #requestTimes: number[] = [];
  readonly #leases = new Map<string, string>();
  /** Each lease's asset id, by the key its upload goes under. */
  readonly #assets = new Map<string, string>();
  readonly #now: () => number;
  #nextId = 1_000_000;

  private constructor(url: string, close: () => Promise<void>, now: () => number) {
    super(url, close);
    this.#now = now;
    this.oauth = new FakeOAuth({
      name: "Reddit",
      scopes: ["identity", "read", "submit", "edit", "history", "mysubreddits", "privatemessages", "vote"],
      scopeSeparator: " ",
      authorizePath: "/api/v1/authorize",
      consentPath: "/api/v1/authorize/consent",
      pkce: false,
      clientAuth: "basic",
      refreshTokenFor: (_scopes, form) => form.get("duration") === "permanent",
      rotate: false,
      accessTokenSeconds: 3600,
      now,
    });
  }

  static async start(options: { port?: number; now?: () => number } = {}): Promise<RedditFake> {
    return startOAuthFake(
      options.port,
      (url, close) => new RedditFake(url, close, options.now ?? Date.now),
      (fake, request) => fake.#handle(request),
    );
  }

  /** Registers a web app at reddit.com/prefs/apps. */
  addApp(app: Partial<FakeApp> = {}): FakeApp {
    return this.oauth.addApp(app, {
      clientId: () => randomBytes(11).toString("base64url"),
      clientSecret: () => randomBytes(22).toString("base64url"),
    });
  }

  addUser(user: { name: string; karma?: number }): RedditFakeUser {
    const made = { id: (this.#nextId++).toString(36), name: user.name, karma: user.karma ?? 1 };
    this.users.set(made.id, made);
    this.addSubreddit({ name: `u_${made.name}`, submissionType: "any", subscribers: 0 });
    return made;
  }

  addSubreddit(subreddit: RedditFakeSubreddit): RedditFakeSubreddit {
    this.subreddits.set(subreddit.name.toLowerCase(), subreddit);
    return subreddit;
  }

  async #handle(request: FakeRequest): Promise<FakeAnswer> {
    const { pathname } = request.url;
    const text = () => new URLSearchParams(new TextDecoder().decode(request.body));
    // The token endpoint is not routed here: Reddit checks the User-Agent of token requests too.
    const oauth = this.oauth.route(request);
    if (oauth) return oauth;
    if (request.method === "POST" && pathname === "/media-upload") return this.#upload(request);
    const agent = request.headers.get("user-agent") ?? "";
    this.userAgents.add(agent);
    if (GENERIC_AGENT.test(agent)) return { status: 429, json: { message: "Too Many Requests", error: 429 } };
    if (request.method === "POST" && pathname === "/api/v1/access_token")
      return this.oauth.token(request, text());
    const times = this.#window();
    if (times.length >= this.requestsPerWindow) {
      return {
        status: 429,
        headers: this.#rateHeaders(times),
        json: { message: "Too Many Requests", error: 429 },
      };
    }
    times.push(this.#now());
    const answer = this.#api(request, pathname, request.method === "POST" ? text() : null);
    answer.headers = { ...this.#rateHeaders(times), ...answer.headers };
    return answer;
  }

  #api(request: FakeRequest, pathname: string, form: URLSearchParams | null): FakeAnswer {
    const grant = this.oauth.grantOf(request);
    if (!grant) return { status: 401, json: { message: "Unauthorized", error: 401 } };
    const user = this.users.get(grant.userId)!;
    const scoped = (scope: string) => grant.scopes.includes(scope);
    if (request.method === "GET" && pathname === "/api/v1/me") {
      if (!scoped("identity")) return forbidden();
      return { status: 200, json: { id: user.id, name: user.name, total_karma: user.karma } };
    }
    const about = /^\/r\/([^/]+)\/about$/.exec(pathname);
    if (request.method === "GET" && about) {
      if (!scoped("read")) return forbidden();
      const sr = this.subreddits.get(about[1]!.toLowerCase());
      if (!sr) return { status: 404, json: { message: "Not Found", error: 404 } };
      return {
        status: 200,
        json: {
          kind: "t5",
          data: { display_name: sr.name, submission_type: sr.submissionType, subscribers: sr.subscribers },
        },
      };
    }
    if (request.method === "POST" && pathname === "/api/media/asset.json") return this.#lease(grant, form!);
    if (request.method === "POST" && pathname === "/api/submit") return this.#submit(grant, user, form!);
    if (request.method === "POST" && pathname === "/api/submit_gallery_post.json")
      return this.#submitGallery(grant, user, request);
    if (request.method === "POST" && pathname === "/api/comment") return this.#comment(grant, user, form!);
    if (request.method === "GET" && pathname === "/api/info") {
      if (!scoped("read")) return forbidden();
      // Fullnames (t3_<id>) separated by commas; unknown ones are left out of the listing.
      const names = (request.url.searchParams.get("id") ?? "").split(",");
      const children = this.posts
        .filter((p) => names.includes(`t3_${p.id}`))
        .map((p) => ({
          kind: "t3",
          data: {
            id: p.id,
            name: `t3_${p.id}`,
            title: p.title,
            subreddit: p.subreddit,
            permalink: p.permalink,
            score: p.score,
            ups: p.score,
            num_comments: p.comments,
            num_crossposts: p.crossposts,
            view_count: null,
          },
        }));
      return { status: 200, json: { kind: "Listing", data: { children, after: null, before: null } } };
    }
    const submitted = /^\/user\/([^/]+)\/submitted$/.exec(pathname);
    if (request.method === "GET" && submitted) {
      if (!scoped("history")) return forbidden();
      return this.#submitted(submitted[1]!, request.url.searchParams);
    }
    return { status: 404, json: { message: "Not Found", error: 404 } };
  }

  /**
   * A user's submitted posts, newest first: `limit` a page (25 by default, 100 at most), `after` the
   * fullname of the post the page follows, and the listing's `after` the last one's while more follow.
   * Without raw_json=1, & < > in titles and bodies come HTML-escaped, as Reddit's legacy JSON does.
   */
  #submitted(name: string, query: URLSearchParams): FakeAnswer {
    this.submittedReads.push(Object.fromEntries(query));
    const limit = Math.min(100, Math.max(1, Number(query.get("limit") ?? 25) || 25));
    const mine = this.posts.filter((p) => this.users.get(p.userId)?.name === name).reverse();
    const after = query.get("after");
    const start = after === null ? 0 : mine.findIndex((p) => `t3_${p.id}` === after) + 1;
    const page = mine.slice(start, start + limit);
    const raw = query.get("raw_json") === "1";
    const text = (value: string) =>
      raw ? value : value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
    const children = page.map((p) => ({
      kind: "t3",
      data: {
        id: p.id,
        name: `t3_${p.id}`,
        title: text(p.title),
        subreddit: p.subreddit,
        permalink: p.permalink,
        created_utc: Math.floor(p.createdAt / 1000),
        is_self: p.kind === "self",
        selftext: text(p.text ?? ""),
        url: p.kind === "self" ? `https://www.reddit.com${p.permalink}` : p.url,
        is_reddit_media_domain: p.kind === "image" || p.kind === "gallery",
        ...(p.kind === "image" && { post_hint: "image" }),
        ...(p.kind === "gallery" && {
          is_gallery: true,
          gallery_data: {
            items: p.gallery.map((key, i) => ({ media_id: this.#assets.get(key), id: i + 1 })),
          },
        }),
        over_18: p.nsfw,
        spoiler: p.spoiler,
        link_flair_template_id: p.flairId,
      },
    }));
    const more = start + limit < mine.length;
    return {
      status: 200,
      json: {
        kind: "Listing",
        data: { children, after: more ? `t3_${page.at(-1)!.id}` : null, before: null, dist: children.length },
      },
    };
  }

  #lease(grant: FakeGrant, form: URLSearchParams): FakeAnswer {
    if (!grant.scopes.includes("submit")) return forbidden();
    const type = form.get("mimetype") ?? "";
    if (!/^image\/(jpeg|png|gif)$/.test(type) || !form.get("filepath")) {
      return { status: 400, json: { message: "Bad Request", error: 400 } };
    }
    const key = `rte_images/${randomBytes(8).toString("hex")}`;
    const assetId = randomBytes(6).toString("hex");
    this.#leases.set(key, type);
    this.#assets.set(key, assetId);
    const host = new URL(this.url).host;
    return {
      status: 200,
      json: {
        args: {
          action: `//${host}/media-upload`,
          fields: [
            { name: "key", value: key },
            { name: "Content-Type", value: type },
            { name: "policy", value: randomBytes(12).toString("base64") },
          ],
        },
        asset: { asset_id: assetId, processing_state: "incomplete" },
      },
    };
  }

  /** The upload form a lease points to (Reddit's S3 bucket): the leased key, its type, then the file. */
  async #upload(request: FakeRequest): Promise<FakeAnswer> {
    const form = await formDataOf(request);
    const key = String(form.get("key") ?? "");
    const type = this.#leases.get(key);
    const file = form.get("file");
    if (
      !type ||
      !(file instanceof Blob) ||
      file.type !== type ||
      !isJpegPngOrGif(new Uint8Array(await file.arrayBuffer()))
    ) {
      return {
        status: 400,
        headers: { "content-type": "application/xml" },
        text: "<Error><Code>InvalidArgument</Code></Error>",
      };
    }
    this.#leases.delete(key);
    this.uploads.set(key, { type, bytes: file.size });
    return {
      status: 201,
      headers: { "content-type": "application/xml" },
      text: `<PostResponse><Key>${key}</Key></PostResponse>`,
    };
  }

  #submit(grant: FakeGrant, user: RedditFakeUser, form: URLSearchParams): FakeAnswer {
    if (!grant.scopes.includes("submit")) return forbidden();
    const refuse = (code: string, message: string, field: string) => ({
      status: 200,
      json: { json: { errors: [[code, message, field]] } },
    });
    if (this.submitBreakMinutes !== null) {
      return refuse(
        "RATELIMIT",
        `Looks like you've been doing that a lot. Take a break for ${this.submitBreakMinutes} minutes before trying again.`,
        "ratelimit",
      );
    }
    const sr = this.subreddits.get((form.get("sr") ?? "").toLowerCase());
    if (!sr) return refuse("SUBREDDIT_NOEXIST", "That community doesn't exist.", "sr");
    const kind = form.get("kind");
    const title = form.get("title") ?? "";
    if (!title) return refuse("NO_TEXT", "we need something here", "title");
    if ([...title].length > 300) return refuse("TOO_LONG", "this is too long (max: 300)", "title");
    if (kind !== "self" && kind !== "link" && kind !== "image")
      return refuse("INVALID_OPTION", "that option is not valid", "kind");
    if (sr.submissionType === "self" && kind !== "self")
      return refuse("NO_LINKS", "that community only allows text posts", "sr");
    if (sr.submissionType === "link" && kind === "self")
      return refuse("NO_SELFS", "that community doesn't allow text posts", "sr");
    const url = form.get("url");
    if (kind === "image") {
      const key = url ? new URL(url).pathname.replace(/^\/media-upload\//, "") : "";
      if (!this.uploads.has(key)) return refuse("BAD_URL", "the image could not be found", "url");
    }
    if (kind === "link" && !/^https?:\/\//.test(url ?? ""))
      return refuse("BAD_URL", "you should check that url", "url");
    const flairId = form.get("flair_id");
    if (flairId !== null && !sr.flairs?.includes(flairId))
      return refuse("BAD_FLAIR_TEMPLATE_ID", "that flair doesn't exist", "flair_id");
    const { id, permalink } = this.#make({
      userId: user.id,
      subreddit: sr.name,
      kind,
      title,
      text: kind === "self" ? (form.get("text") ?? "") : null,
      url: kind === "self" ? null : url,
      gallery: [],
      flairId,
      nsfw: form.get("nsfw") === "true",
      spoiler: form.get("spoiler") === "true",
    });
    if (kind === "image") {
      // Reddit answers an image post before making it: where to watch for it, not its id.
      return {
        status: 200,
        json: {
          json: {
            errors: [],
            data: {
              user_submitted_page: `https://www.reddit.com/user/${user.name}/submitted/`,
              websocket_url: `wss://ws.redditmedia.com/rte_images/${id}`,
            },
          },
        },
      };
    }
    return {
      status: 200,
      json: {
        json: {
          errors: [],
          data: { url: `https://www.reddit.com${permalink}`, drafts_count: 0, id, name: `t3_${id}` },
        },
      },
    };
  }

  #make(post: Omit<RedditFakePost, "id" | "permalink" | "createdAt" | "score" | "comments" | "crossposts">) {
    const id = (this.#nextId++).toString(36);
    const permalink = `/r/${post.subreddit}/comments/${id}/post/`;
    this.posts.push({ ...post, id, permalink, createdAt: this.#now(), score: 1, comments: 0, crossposts: 0 });
    return { id, permalink };
  }

  /**
   * A gallery, as JSON: `sr`, `title`, `items` (2–20, each the media_id of an uploaded asset, a caption of
   * at most 180 characters and an outbound_url), `nsfw`, `spoiler`, `flair_id`. Answered with the new
   * post's URL (its id inside it) and fullname.
   */
  #submitGallery(grant: FakeGrant, user: RedditFakeUser, request: FakeRequest): FakeAnswer {
    if (!grant.scopes.includes("submit")) return forbidden();
    if (!(request.headers.get("content-type") ?? "").startsWith("application/json"))
      return { status: 415, json: { message: "Unsupported Media Type", error: 415 } };
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(new TextDecoder().decode(request.body)) as Record<string, unknown>;
    } catch {
      return { status: 400, json: { message: "Bad Request", error: 400 } };
    }
    const refuse = (code: string, message: string, field: string) => ({
      status: 200,
      json: { json: { errors: [[code, message, field]] } },
    });
    const sr = this.subreddits.get(String(body.sr ?? "").toLowerCase());
    if (!sr) return refuse("SUBREDDIT_NOEXIST", "That community doesn't exist.", "sr");
    if (sr.submissionType === "self") return refuse("NO_IMAGES", "that community doesn't allow images", "sr");
    const title = typeof body.title === "string" ? body.title : "";
    if (!title) return refuse("NO_TEXT", "we need something here", "title");
    if ([...title].length > 300) return refuse("TOO_LONG", "this is too long (max: 300)", "title");
    const items = Array.isArray(body.items) ? (body.items as Record<string, unknown>[]) : [];
    if (items.length < 2 || items.length > 20)
      return refuse("INVALID_GALLERY", "a gallery has 2 to 20 items", "items");
    const keys: string[] = [];
    for (const item of items) {
      const key = [...this.#assets].find(([, asset]) => asset === item?.media_id)?.[0];
      if (!key || !this.uploads.has(key))
        return refuse("MEDIA_NOT_FOUND", "that media wasn't found", "items");
      if (typeof item.caption === "string" && [...item.caption].length > 180)
        return refuse("TOO_LONG", "this is too long (max: 180)", "caption");
      keys.push(key);
    }
    const flairId = typeof body.flair_id === "string" ? body.flair_id : null;
    if (flairId !== null && !sr.flairs?.includes(flairId))
      return refuse("BAD_FLAIR_TEMPLATE_ID", "that flair doesn't exist", "flair_id");
    const { id, permalink } = this.#make({
      userId: user.id,
      subreddit: sr.name,
      kind: "gallery",
      title,
      text: null,
      url: `https://www.reddit.com/gallery/${this.#nextId.toString(36)}`,
      gallery: keys,
      flairId,
      nsfw: body.nsfw === true,
      spoiler: body.spoiler === true,
    });
    return {
      status: 200,
      json: { json: { errors: [], data: { url: `https://www.reddit.com${permalink}`, id: `t3_${id}` } } },
    };
  }

  /** A comment replying to a post (thing_id t3_<id>), with the submit scope; at most 10,000 characters. */
  #comment(grant: FakeGrant, user: RedditFakeUser, form: URLSearchParams): FakeAnswer {
    if (!grant.scopes.includes("submit")) return forbidden();
    const refuse = (code: string, message: string, field: string) => ({
      status: 200,
      json: { json: { errors: [[code, message, field]] } },
    });
    const parent = form.get("thing_id") ?? "";
    const post = this.posts.find((p) => `t3_${p.id}` === parent);
    if (!post) return refuse("NO_THING_ID", "can't find that thing", "parent");
    const text = form.get("text") ?? "";
    if (!text) return refuse("NO_TEXT", "we need something here", "text");
    if ([...text].length > 10_000) return refuse("TOO_LONG", "this is too long (max: 10000)", "text");
    const id = (this.#nextId++).toString(36);
    const permalink = `${post.permalink}${id}/`;
    this.comments.push({ id, userId: user.id, parent, text, permalink });
    post.comments += 1;
    return {
      status: 200,
      json: {
        json: {
          errors: [],
          data: {
            things: [
              {
                kind: "t1",
                data: {
                  id,
                  name: `t1_${id}`,
                  body: text,
                  author: user.name,
                  link_id: parent,
                  parent_id: parent,
                  subreddit: post.subreddit,
                  permalink,
                },
              },
            ],
          },
        },
      },
    };
  }

  #window(): number[] {
    const since = this.#now() - WINDOW_MS;
    while (this.#requestTimes.length > 0 && this.#requestTimes[0]! <= since) this.#requestTimes.shift();
    return this.#requestTimes;
  }

  /** Reddit's limit headers: requests used in this window, left, and seconds until it ends. */
  #rateHeaders(times: number[]): Record<string, string> {
    const reset = Math.max(1, Math.ceil(((times[0] ?? this.#now()) + WINDOW_MS - this.#now()) / 1000));
    return {
      "x-ratelimit-used": String(times.length),
      "x-ratelimit-remaining": String(Math.max(0, this.requestsPerWindow - times.length)),
      "x-ratelimit-reset": String(reset),
    };
  }
}

function forbidden(): FakeAnswer {
  return { status: 403, json: { message: "Forbidden", error: 403 } };
}
