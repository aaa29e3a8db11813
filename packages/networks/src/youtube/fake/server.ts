import { randomBytes } from "node:crypto";
import { type FakeApp, type FakeGrant, OAuthNetworkFake, startOAuthFake } from "../../common/fake-oauth.ts";
import type { FakeAnswer, FakeRequest } from "../../common/fake-server.ts";
import {
  googleError,
  insufficientPermissions,
  quotaExceeded,
  unauthenticated,
  uploadLimitExceeded,
} from "./errors.ts";
import { YouTubeFakeOAuth } from "./oauth.ts";
import { listPlaylistItems, uploadsPlaylistOf } from "./uploads.ts";

/*
 * A stateful fake of Google's OAuth 2.0 and the YouTube Data API v3 on a loopback port, for tests that
 * cannot reach Google. There is no machine-readable description of these APIs here, so it follows
 * Google's guides: the consent page and token endpoint (oauth.ts), channels.list?mine=true, the
 * resumable upload of videos.insert (a POST opens a session and answers its URL in Location; PUTs send
 * the bytes, whole or in Content-Range chunks; 308 Resume Incomplete with Range until the last byte is
 * in, then 201 with the video resource; `bytes *\/N` asks where a session stands), videos.list
 * statistics, the channel's uploads playlist (uploads.ts), commentThreads.insert (a top-level comment
 * on a video, with youtube.force-ssl only; none on a video made for kids, whose comments YouTube turns
 * off), and the project's daily quota (10,000 units; an upload costs 1600, a comment 50, a read 1).
 * An upload's snippet takes tags (500 characters in all, invalidTags) and an assignable categoryId
 * (invalidCategoryId), its status selfDeclaredMadeForKids. Errors:
 * 401 for an expired or revoked token, 403 quotaExceeded, 400 uploadLimitExceeded, 400 for a title or
 * description YouTube refuses or a file that is not a video, 404 for an unknown session. A project
 * Google has not audited gets every upload locked to private, as YouTube does.
 */

const UPLOAD_PATH = "/upload/youtube/v3/videos";
const READ_SCOPES = new Set([
  "https://www.googleapis.com/auth/youtube",
  "https://www.googleapis.com/auth/youtube.readonly",
  "https://www.googleapis.com/auth/youtube.force-ssl",
]);
const UPLOAD_SCOPES = new Set([
  "https://www.googleapis.com/auth/youtube",
  "https://www.googleapis.com/auth/youtube.upload",
  "https://www.googleapis.com/auth/youtube.force-ssl",
]);
const PRIVACY = new Set(["public", "private", "unlisted"]);
const UPLOAD_COST = 1600;
const COMMENT_COST = 50;
/** commentThreads.insert takes this scope only. */
const COMMENT_SCOPE = "https://www.googleapis.com/auth/youtube.force-ssl";
/** The video categories a video may be assigned to (videoCategories.list, region US, assignable). */
const ASSIGNABLE_CATEGORIES = new Set([
  "1",
  "2",
  "10",
  "15",
  "17",
  "19",
  "20",
  "22",
  "23",
  "24",
  "25",
  "26",
  "27",
  "28",
  "29",
]);

export interface YouTubeFakeUser {
  id: string;
  /** The user's channel; null for a Google account without one. */
  channel: { id: string; title: string; handle: string | null; subscribers: number } | null;
}

export interface YouTubeFakeSession {
  id: string;
  userId: string;
  size: number;
  contentType: string;
  metadata: {
    title: string;
    description: string;
    privacyStatus: string;
    tags: string[];
    categoryId: string;
    madeForKids: boolean;
  };
  received: Uint8Array;
  videoId: string | null;
}

export interface YouTubeFakeVideo {
  id: string;
  channelId: string;
  sessionId: string;
  title: string;
  description: string;
  /** What the upload asked for. */
  requestedPrivacy: string;
  /** What YouTube made of it: private when the project is not audited. */
  privacyStatus: string;
  tags: string[];
  categoryId: string;
  madeForKids: boolean;
  bytes: number;
  /** When its last byte was in (Unix ms). */
  publishedAt: number;
  statistics: { viewCount: number; likeCount: number; commentCount: number };
}

export interface YouTubeFakeComment {
  id: string;
  videoId: string;
  /** The channel that commented. */
  channelId: string;
  text: string;
}

export interface YouTubeFakeOptions {
  port?: number;
  now?: () => number;
}

export class YouTubeFake extends OAuthNetworkFake<YouTubeFakeUser> {
  readonly oauth: YouTubeFakeOAuth;
  readonly users = new Map<string, YouTubeFakeUser>();
  readonly sessions = new Map<string, YouTubeFakeSession>();
  readonly videos: YouTubeFakeVideo[] = [];
  readonly comments: YouTubeFakeComment[] = [];
  /** Each playlistItems.list read (the channel's uploads read back): its query. */
  readonly playlistReads: Record<string, string>[] = [];
  /** Every PUT to a session: its Content-Range and the status answered. */
  readonly puts: { session: string; range: string; status: number }[] = [];
  /** Whether Google has audited the project; until it has, uploads are locked to private. */
  audited = false;
  /** The project's daily quota, in units, and what is used of it. */
  quotaPerDay = 10_000;
  quotaUsed = 0;
  /** Uploads a channel may make (uploadLimitExceeded beyond). */
  uploadsPerChannel = Number.POSITIVE_INFINITY;
  /** At most this many bytes of one PUT are kept (the rest is answered 308 with the Range held). */
  maxBytesPerPut = Number.POSITIVE_INFINITY;
  readonly #now: () => number;
  #hold: { afterBytes: number; release: Promise<void>; open: () => void } | null = null;
  #holdOpens: { release: Promise<void>; open: () => void } | null = null;
  #nextId = 1;

  private constructor(url: string, close: () => Promise<void>, now: () => number) {
    super(url, close);
    this.#now = now;
    this.oauth = new YouTubeFakeOAuth(now);
  }

  static async start(options: YouTubeFakeOptions = {}): Promise<YouTubeFake> {
    return startOAuthFake(
      options.port,
      (url, close) => new YouTubeFake(url, close, options.now ?? Date.now),
      (fake, request) => fake.#handle(request),
    );
  }

  override close(): Promise<void> {
    this.#hold?.open();
    this.#holdOpens?.open();
    return super.close();
  }

  /** Registers a "Web application" OAuth client in the Google Cloud console. */
  addApp(app: Partial<FakeApp> = {}): FakeApp {
    return this.oauth.addApp(app, {
      clientId: () => `${this.#nextId++}-fake.apps.googleusercontent.com`,
      clientSecret: () => `GOCSPX-${randomBytes(18).toString("base64url")}`,
    });
  }

  /** A Google account, with a channel unless `channel` is false. */
  addUser(user: { title?: string; handle?: string; subscribers?: number; channel?: false }): YouTubeFakeUser {
    const id = String(this.#nextId++);
    const made: YouTubeFakeUser = {
      id,
      channel:
        user.channel === false
          ? null
          : {
              id: `UC${randomBytes(16).toString("base64url").slice(0, 22)}`,
              title: user.title ?? "Channel",
              handle: user.handle ?? null,
              subscribers: user.subscribers ?? 0,
            },
    };
    this.users.set(id, made);
    return made;
  }

  /** From now on, a PUT keeps at most `afterBytes` more bytes of a session and then gets no answer until release(). */
  holdUploads(afterBytes: number): void {
    let open = () => {};
    const release = new Promise<void>((resolve) => {
      open = resolve;
    });
    this.#hold = { afterBytes, release, open };
  }

  /** From now on, a POST that opens a session opens it and then gets no answer until release(). */
  holdSessionOpens(): void {
    let open = () => {};
    const release = new Promise<void>((resolve) => {
      open = resolve;
    });
    this.#holdOpens = { release, open };
  }

  /** Lets held requests go (their connections are gone by then) and stops holding. */
  release(): void {
    this.#hold?.open();
    this.#hold = null;
    this.#holdOpens?.open();
    this.#holdOpens = null;
  }

  videosOf(user: YouTubeFakeUser): YouTubeFakeVideo[] {
    return this.videos.filter((v) => v.channelId === user.channel?.id);
  }

  async #handle(request: FakeRequest): Promise<FakeAnswer> {
    const { pathname } = request.url;
    const text = () => new TextDecoder().decode(request.body);
    const oauth = this.oauth.route(request);
    if (oauth) return oauth;
    if (request.method === "POST" && pathname === "/token")
      return this.#token(request, new URLSearchParams(text()));
    const grant = this.oauth.grantOf(request);
    if (!grant) return unauthenticated();
    const user = this.users.get(grant.userId)!;
    if (request.method === "GET" && pathname === "/youtube/v3/channels")
      return this.#channels(grant, user, request);
    if (request.method === "GET" && pathname === "/youtube/v3/videos")
      return this.#videoStats(grant, request);
    if (request.method === "GET" && pathname === "/youtube/v3/playlistItems")
      return this.#playlistItems(grant, user, request);
    if (request.method === "POST" && pathname === UPLOAD_PATH)
      return this.#opened(grant, user, request, text());
    if (request.method === "PUT" && pathname === UPLOAD_PATH) return this.#put(grant, request);
    if (request.method === "POST" && pathname === "/youtube/v3/commentThreads")
      return this.#comment(grant, user, request, text());
    return googleError(404, "notFound", "global", `No route ${request.method} ${pathname}`);
  }

  /** Google's refresh answers carry no refresh token: the one the app holds keeps working. */
  #token(request: FakeRequest, form: URLSearchParams): FakeAnswer {
    const answer = this.oauth.token(request, form);
    if (answer.status === 200 && form.get("grant_type") === "refresh_token") {
      const { refresh_token: _kept, ...rest } = answer.json as Record<string, unknown>;
      return { ...answer, json: rest };
    }
    return answer;
  }

  #charge(units: number): boolean {
    if (this.quotaUsed + units > this.quotaPerDay) return false;
    this.quotaUsed += units;
    return true;
  }

  #channels(grant: FakeGrant, user: YouTubeFakeUser, request: FakeRequest): FakeAnswer {
    if (!grant.scopes.some((s) => READ_SCOPES.has(s))) return insufficientPermissions();
    if (request.url.searchParams.get("mine") !== "true") {
      return googleError(400, "missingRequiredParameter", "youtube.parameter", "No filter selected.");
    }
    if (!this.#charge(1)) return quotaExceeded();
    const parts = (request.url.searchParams.get("part") ?? "").split(",");
    const c = user.channel;
    const items = c
      ? [
          {
            kind: "youtube#channel",
            id: c.id,
            snippet: { title: c.title, description: "", ...(c.handle && { customUrl: c.handle }) },
            statistics: {
              viewCount: "0",
              subscriberCount: String(c.subscribers),
              hiddenSubscriberCount: false,
              videoCount: String(this.videos.filter((v) => v.channelId === c.id).length),
            },
            ...(parts.includes("contentDetails") && {
              contentDetails: { relatedPlaylists: { likes: "", uploads: uploadsPlaylistOf(c.id) } },
            }),
          },
        ]
      : [];
    return {
      status: 200,
      json: {
        kind: "youtube#channelListResponse",
        pageInfo: { totalResults: items.length, resultsPerPage: 5 },
        items,
      },
    };
  }

  /** playlistItems.list: a channel's uploads (uploads.ts); a read costs a unit. */
  #playlistItems(grant: FakeGrant, user: YouTubeFakeUser, request: FakeRequest): FakeAnswer {
    if (!grant.scopes.some((s) => READ_SCOPES.has(s))) return insufficientPermissions();
    if (!this.#charge(1)) return quotaExceeded();
    this.playlistReads.push(Object.fromEntries(request.url.searchParams));
    const known = new Set([...this.users.values()].flatMap((u) => (u.channel ? [u.channel.id] : [])));
    return listPlaylistItems(this.videos, request.url.searchParams, {
      viewer: user.channel?.id ?? null,
      exists: (id) => known.has(id),
    });
  }

  #videoStats(grant: FakeGrant, request: FakeRequest): FakeAnswer {
    if (!grant.scopes.some((s) => READ_SCOPES.has(s))) return insufficientPermissions();
    if (!this.#charge(1)) return quotaExceeded();
    const ids = (request.url.searchParams.get("id") ?? "").split(",").filter(Boolean);
    const items = this.videos
      .filter((v) => ids.includes(v.id))
      .map((v) => ({
        kind: "youtube#video",
        id: v.id,
        statistics: {
          viewCount: String(v.statistics.viewCount),
          likeCount: String(v.statistics.likeCount),
          favoriteCount: "0",
          commentCount: String(v.statistics.commentCount),
        },
      }));
    return {
      status: 200,
      json: {
        kind: "youtube#videoListResponse",
        pageInfo: { totalResults: items.length, resultsPerPage: 5 },
        items,
      },
    };
  }

  /** Opens a session; while opens are held, its answer waits for release() and reaches no one. */
  async #opened(
    grant: FakeGrant,
    user: YouTubeFakeUser,
    request: FakeRequest,
    body: string,
  ): Promise<FakeAnswer> {
    const answer = this.#open(grant, user, request, body);
    const held = this.#holdOpens;
    if (!held || answer.status !== 200) return answer;
    await held.release;
    return googleError(503, "backendError", "global", "Backend Error");
  }

  /** POST /upload/youtube/v3/videos?uploadType=resumable: opens a session. */
  #open(grant: FakeGrant, user: YouTubeFakeUser, request: FakeRequest, body: string): FakeAnswer {
    const q = request.url.searchParams;
    if (q.get("uploadType") !== "resumable") {
      return googleError(400, "invalidParameter", "global", "This fake takes resumable uploads only.");
    }
    if (!grant.scopes.some((s) => UPLOAD_SCOPES.has(s))) return insufficientPermissions();
    if (!user.channel) {
      return googleError(401, "youtubeSignupRequired", "youtube.header", "The user has no YouTube channel.");
    }
    const size = Number(request.headers.get("x-upload-content-length"));
    const contentType = request.headers.get("x-upload-content-type") ?? "";
    if (!Number.isInteger(size) || size <= 0) {
      return googleError(
        400,
        "mediaBodyRequired",
        "youtube.video",
        "The request does not include the video content.",
      );
    }
    if (!/^video\//.test(contentType) && contentType !== "application/octet-stream") {
      return googleError(
        400,
        "invalidContentType",
        "youtube.video",
        "Media type not accepted: only video/* or application/octet-stream.",
      );
    }
    let video: { snippet?: Record<string, unknown>; status?: Record<string, unknown> };
    try {
      video = JSON.parse(body);
    } catch {
      return googleError(400, "parseError", "global", "Parse Error");
    }
    const title = video.snippet?.title;
    const description = video.snippet?.description ?? "";
    if (typeof title !== "string" || title.trim() === "" || [...title].length > 100 || /[<>]/.test(title)) {
      return googleError(
        400,
        "invalidTitle",
        "youtube.video",
        "The request metadata specifies an invalid or empty video title.",
      );
    }
    if (
      typeof description !== "string" ||
      Buffer.byteLength(description) > 5000 ||
      /[<>]/.test(description)
    ) {
      return googleError(
        400,
        "invalidDescription",
        "youtube.video",
        "The request metadata specifies an invalid video description.",
      );
    }
    const privacyStatus = video.status?.privacyStatus ?? "public";
    if (typeof privacyStatus !== "string" || !PRIVACY.has(privacyStatus)) {
      return googleError(400, "invalidVideoMetadata", "youtube.video", "The request metadata is invalid.");
    }
    const tags = video.snippet?.tags ?? [];
    // YouTube counts a tag with a space as quoted, and a comma between tags.
    const tagLength = (list: unknown[]) =>
      list.reduce<number>((sum, t) => sum + [...String(t)].length + (/\s/.test(String(t)) ? 2 : 0), 0) +
      Math.max(0, list.length - 1);
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string") || tagLength(tags) > 500) {
      return googleError(
        400,
        "invalidTags",
        "youtube.video",
        "The request metadata specifies invalid video keywords.",
      );
    }
    const categoryId = video.snippet?.categoryId ?? "22";
    if (typeof categoryId !== "string" || !ASSIGNABLE_CATEGORIES.has(categoryId)) {
      return googleError(
        400,
        "invalidCategoryId",
        "youtube.video",
        "The snippet.categoryId property specifies an invalid category ID.",
      );
    }
    const madeForKids = video.status?.selfDeclaredMadeForKids ?? false;
    if (typeof madeForKids !== "boolean") {
      return googleError(400, "invalidVideoMetadata", "youtube.video", "The request metadata is invalid.");
    }
    const made = [...this.sessions.values()].filter((s) => s.userId === user.id).length;
    if (made >= this.uploadsPerChannel) return uploadLimitExceeded();
    if (!this.#charge(UPLOAD_COST)) return quotaExceeded();
    const id = randomBytes(16).toString("base64url");
    this.sessions.set(id, {
      id,
      userId: user.id,
      size,
      contentType,
      metadata: { title, description, privacyStatus, tags: tags as string[], categoryId, madeForKids },
      received: new Uint8Array(0),
      videoId: null,
    });
    return {
      status: 200,
      headers: {
        location: `${this.url}${UPLOAD_PATH}?uploadType=resumable&upload_id=${id}`,
        "x-guploader-uploadid": id,
      },
      text: "",
    };
  }

  /** PUT to a session: bytes (whole, or a Content-Range chunk), or `bytes *\/N` to ask where it stands. */
  async #put(grant: FakeGrant, request: FakeRequest): Promise<FakeAnswer> {
    const session = this.sessions.get(request.url.searchParams.get("upload_id") ?? "");
    const range = request.headers.get("content-range") ?? "";
    const answer = await this.#putAnswer(grant, session, range, request.body);
    this.puts.push({ session: session?.id ?? "", range, status: answer.status });
    return answer;
  }

  async #putAnswer(
    grant: FakeGrant,
    session: YouTubeFakeSession | undefined,
    range: string,
    body: Uint8Array,
  ): Promise<FakeAnswer> {
    if (!session || session.userId !== grant.userId) {
      return googleError(404, "notFound", "global", "The upload session was not found or has expired.");
    }
    if (session.videoId) return this.#finished(session);
    const query = /^bytes \*\/(\d+)$/.exec(range);
    if (query) return this.#incomplete(session);
    const chunk = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    let start = 0;
    if (chunk) {
      start = Number(chunk[1]);
      if (Number(chunk[3]) !== session.size || Number(chunk[2]) - start + 1 !== body.length) {
        return googleError(400, "badContent", "global", "Content-Range does not match the request.");
      }
    } else if (range !== "" || body.length !== session.size) {
      return googleError(
        400,
        "badContent",
        "global",
        "The body is not the whole file and has no Content-Range.",
      );
    }
    // Bytes before what the session holds are already in; a gap after it is not taken.
    if (start > session.received.length) return this.#incomplete(session);
    let keep = body.subarray(session.received.length - start);
    keep = keep.subarray(0, Math.min(keep.length, this.maxBytesPerPut));
    const hold = this.#hold;
    if (hold) keep = keep.subarray(0, Math.max(0, hold.afterBytes));
    session.received = concat(session.received, keep);
    if (hold) {
      // The connection is cut meanwhile: nothing after this reaches anyone.
      await hold.release;
      return googleError(503, "backendError", "global", "Backend Error");
    }
    if (session.received.length < session.size) return this.#incomplete(session);
    const video = this.#makeVideo(session);
    return { status: 201, json: this.#resource(video, session) };
  }

  #incomplete(session: YouTubeFakeSession): FakeAnswer {
    const held = session.received.length;
    return { status: 308, headers: held > 0 ? { range: `bytes=0-${held - 1}` } : {}, text: "" };
  }

  #finished(session: YouTubeFakeSession): FakeAnswer {
    const video = this.videos.find((v) => v.id === session.videoId)!;
    return { status: 200, json: this.#resource(video, session) };
  }

  /**
   * commentThreads.insert (part=snippet): a top-level comment by the caller's channel on a video. Only
   * youtube.force-ssl allows it; a video made for kids has comments off (403 commentsDisabled).
   */
  #comment(grant: FakeGrant, user: YouTubeFakeUser, request: FakeRequest, body: string): FakeAnswer {
    if (request.url.searchParams.get("part") !== "snippet")
      return googleError(400, "invalidPart", "youtube.part", "The part parameter must be snippet.");
    if (!grant.scopes.includes(COMMENT_SCOPE)) return insufficientPermissions();
    if (!user.channel)
      return googleError(403, "forbidden", "youtube.commentThread", "The user has no YouTube channel.");
    let thread: {
      snippet?: { videoId?: unknown; topLevelComment?: { snippet?: { textOriginal?: unknown } } };
    };
    try {
      thread = JSON.parse(body);
    } catch {
      return googleError(400, "parseError", "global", "Parse Error");
    }
    const videoId = thread.snippet?.videoId;
    const text = thread.snippet?.topLevelComment?.snippet?.textOriginal;
    const video = this.videos.find((v) => v.id === videoId);
    if (!video)
      return googleError(
        404,
        "videoNotFound",
        "youtube.commentThread",
        "The video identified by the videoId parameter could not be found.",
      );
    if (typeof text !== "string" || text.trim() === "" || [...text].length > 10_000)
      return googleError(
        400,
        "commentTextRequired",
        "youtube.commentThread",
        "The comment text is empty or too long.",
      );
    if (video.madeForKids)
      return googleError(
        403,
        "commentsDisabled",
        "youtube.commentThread",
        "The video identified by the videoId parameter has disabled comments.",
      );
    if (!this.#charge(COMMENT_COST)) return quotaExceeded();
    const id = `Ug${randomBytes(12).toString("base64url")}`;
    this.comments.push({ id, videoId: video.id, channelId: user.channel.id, text });
    video.statistics.commentCount += 1;
    const snippet = {
      channelId: video.channelId,
      videoId: video.id,
      textDisplay: text,
      textOriginal: text,
      authorChannelId: { value: user.channel.id },
      publishedAt: new Date(this.#now()).toISOString(),
    };
    return {
      status: 200,
      json: {
        kind: "youtube#commentThread",
        id,
        snippet: {
          channelId: video.channelId,
          videoId: video.id,
          topLevelComment: { kind: "youtube#comment", id, snippet },
          canReply: true,
          totalReplyCount: 0,
          isPublic: true,
        },
      },
    };
  }

  #makeVideo(session: YouTubeFakeSession): YouTubeFakeVideo {
    const user = this.users.get(session.userId)!;
    const video: YouTubeFakeVideo = {
      id: randomBytes(8).toString("base64url").slice(0, 11),
      channelId: user.channel!.id,
      sessionId: session.id,
      title: session.metadata.title,
      description: session.metadata.description,
      requestedPrivacy: session.metadata.privacyStatus,
      privacyStatus: this.audited ? session.metadata.privacyStatus : "private",
      tags: session.metadata.tags,
      categoryId: session.metadata.categoryId,
      madeForKids: session.metadata.madeForKids,
      bytes: session.received.length,
      publishedAt: this.#now(),
      statistics: { viewCount: 0, likeCount: 0, commentCount: 0 },
    };
    session.videoId = video.id;
    this.videos.push(video);
    return video;
  }

  #resource(video: YouTubeFakeVideo, session: YouTubeFakeSession): Record<string, unknown> {
    const isVideo = looksLikeVideo(session.received);
    return {
      kind: "youtube#video",
      id: video.id,
      snippet: {
        publishedAt: new Date(this.#now()).toISOString(),
        channelId: video.channelId,
        title: video.title,
        description: video.description,
        ...(video.tags.length > 0 && { tags: video.tags }),
        categoryId: video.categoryId,
      },
      status: {
        selfDeclaredMadeForKids: video.madeForKids,
        madeForKids: video.madeForKids,
        uploadStatus: isVideo ? "uploaded" : "failed",
        ...(!isVideo && { failureReason: "invalidFile" }),
        privacyStatus: video.privacyStatus,
        license: "youtube",
        embeddable: true,
        publicStatsViewable: true,
      },
    };
  }
}

/** Whether the bytes start as a video container this fake knows: MP4/MOV (ftyp), WebM/Matroska. */
function looksLikeVideo(bytes: Uint8Array): boolean {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(4, 8) === "ftyp") return true;
  return (
    bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3
  );
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
