import { randomBytes } from "node:crypto";
import type { FakeAnswer, FakeRequest } from "../../common/fake-server.ts";
import { mp4DurationSeconds } from "../../common/mp4-duration.ts";
import { ok, tiktokError } from "./envelope.ts";

/*
 * The TikTok fake's posts: what an init started, the chunks its upload URL received (TikTok's rules:
 * declared at init, sent in order with Content-Range, 5 to 64 MB each, the last up to 128 MB, a video
 * under 5 MB whole), and where each stands as status/fetch answers it. A finished upload of a file that
 * is no MP4, WebM or MOV fails with file_format_check_failed, and a video longer than the creator's
 * max_video_post_duration_sec with duration_check_failed, as TikTok's processing does.
 */

const MB = 1024 * 1024;

export interface FakePublish {
  publishId: string;
  userId: string;
  mediaType: "VIDEO" | "PHOTO";
  source: "FILE_UPLOAD" | "PULL_FROM_URL";
  title: string;
  privacy: string;
  /** What post_info asked of interactions (a photo post has no duet or stitch: null). */
  disableComment: boolean;
  disableDuet: boolean | null;
  disableStitch: boolean | null;
  videoSize: number;
  chunkSize: number;
  totalChunks: number;
  /** Bytes received so far, the Content-Range of each chunk, and the chunks until the last is in. */
  received: number;
  ranges: string[];
  chunks: Uint8Array[];
  /** The creator's longest video when the post was started (creator_info's max_video_post_duration_sec). */
  maxDurationSec: number;
  uploadToken: string;
  urls: string[];
  status: "PROCESSING_UPLOAD" | "PROCESSING_DOWNLOAD" | "PUBLISH_COMPLETE" | "FAILED";
  failReason: string;
  /** The public post id, once published publicly; private posts never get one. */
  postId: string | null;
  madeAt: number;
  counts: { view_count: number; like_count: number; comment_count: number; share_count: number };
}

type Made = { data: Record<string, unknown> } | { code: string; problem: string };

export class FakePublishes {
  readonly all = new Map<string, FakePublish>();
  /** How often status/fetch was asked about each publish_id. */
  readonly statusReads = new Map<string, number>();
  /** While true, finished uploads stay processing (a slow TikTok) until release(). */
  hold = false;
  /** URL prefixes verified in the app's settings: TikTok pulls media only from these. */
  verifiedUrlPrefixes: string[] = [];
  /** The fail_reason the next finished post fails with instead of publishing. */
  failNext: string | null = null;
  readonly #baseUrl: string;
  readonly #now: () => number;
  #nextPost = 7_440_000_000_000_000_001n;

  constructor(baseUrl: string, now: () => number) {
    this.#baseUrl = baseUrl;
    this.#now = now;
  }

  release(): void {
    this.hold = false;
  }

  initVideo(userId: string, body: unknown, maxDurationSec: number): Made {
    const b = (body ?? {}) as { post_info?: Record<string, unknown>; source_info?: Record<string, unknown> };
    const title = b.post_info?.title;
    if (title !== undefined && (typeof title !== "string" || [...title].length > 2200)) {
      return { code: "invalid_params", problem: "post_info.title must be at most 2200 characters." };
    }
    const source = b.source_info?.source;
    if (source === "PULL_FROM_URL") {
      const url = b.source_info?.video_url;
      if (typeof url !== "string" || !/^https?:\/\//.test(url)) {
        return { code: "invalid_params", problem: "source_info.video_url must be an http(s) URL." };
      }
      if (!this.verifiedUrlPrefixes.some((p) => url.startsWith(p))) {
        return { code: "url_ownership_unverified", problem: "The video_url's domain is not verified." };
      }
      const made = this.#make(userId, "VIDEO", "PULL_FROM_URL", String(title ?? ""), b, [url]);
      made.maxDurationSec = maxDurationSec;
      this.#pull(made);
      return { data: { publish_id: made.publishId } };
    }
    if (source !== "FILE_UPLOAD") {
      return { code: "invalid_params", problem: "source_info.source must be FILE_UPLOAD or PULL_FROM_URL." };
    }
    const size = Number(b.source_info?.video_size);
    const chunk = Number(b.source_info?.chunk_size);
    const count = Number(b.source_info?.total_chunk_count);
    const problem = chunkProblem(size, chunk, count);
    if (problem) return { code: "invalid_params", problem };
    const made = this.#make(userId, "VIDEO", "FILE_UPLOAD", String(title ?? ""), b, []);
    Object.assign(made, { videoSize: size, chunkSize: chunk, totalChunks: count, maxDurationSec });
    return {
      data: { publish_id: made.publishId, upload_url: `${this.#baseUrl}/upload/${made.uploadToken}` },
    };
  }

  initPhotos(userId: string, body: unknown): Made {
    const b = (body ?? {}) as {
      post_info?: Record<string, unknown>;
      source_info?: { source?: unknown; photo_images?: unknown };
      post_mode?: unknown;
      media_type?: unknown;
    };
    if (b.media_type !== "PHOTO" || b.post_mode !== "DIRECT_POST") {
      return { code: "invalid_params", problem: "media_type must be PHOTO and post_mode DIRECT_POST." };
    }
    const images = b.source_info?.photo_images;
    if (b.source_info?.source !== "PULL_FROM_URL" || !Array.isArray(images) || images.length === 0) {
      return { code: "invalid_params", problem: "Photos are pulled from photo_images (PULL_FROM_URL)." };
    }
    const urls = images.map(String);
    if (!urls.every((u) => this.verifiedUrlPrefixes.some((p) => u.startsWith(p)))) {
      return { code: "url_ownership_unverified", problem: "A photo URL's domain is not verified." };
    }
    const made = this.#make(
      userId,
      "PHOTO",
      "PULL_FROM_URL",
      String(b.post_info?.description ?? ""),
      b,
      urls,
    );
    this.#pull(made);
    return { data: { publish_id: made.publishId } };
  }

  /** A PUT of one chunk to an upload URL. */
  receive(uploadToken: string, request: FakeRequest): FakeAnswer {
    const made = [...this.all.values()].find((p) => p.uploadToken === uploadToken);
    if (!made) return { status: 404, text: "" };
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(request.headers.get("content-range") ?? "");
    if (!range) return { status: 400, text: "Content-Range is missing" };
    const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
    const index = made.ranges.length;
    const isLast = index === made.totalChunks - 1;
    const expected = isLast ? made.videoSize - first : made.chunkSize;
    if (
      total !== made.videoSize ||
      first !== made.received ||
      last - first + 1 !== request.body.length ||
      request.body.length !== expected
    ) {
      return { status: 416, text: "The chunk does not follow the declared plan" };
    }
    made.ranges.push(`${first}-${last}/${total}`);
    made.chunks.push(request.body);
    made.received += request.body.length;
    if (index === 0 && !isVideo(request.body)) made.failReason = "file_format_check_failed";
    if (isLast) {
      if (!made.failReason && tooLong(Buffer.concat(made.chunks), made.maxDurationSec)) {
        made.failReason = "duration_check_failed";
      }
      // The video was measured: its bytes are not kept.
      made.chunks = [];
    }
    return { status: isLast ? 201 : 206, text: "" };
  }

  status(userId: string, body: unknown): FakeAnswer {
    const id = (body as { publish_id?: unknown } | undefined)?.publish_id;
    const made = typeof id === "string" ? this.all.get(id) : undefined;
    if (!made || made.userId !== userId)
      return tiktokError(400, "invalid_publish_id", "The publish_id is unknown.");
    this.statusReads.set(made.publishId, (this.statusReads.get(made.publishId) ?? 0) + 1);
    const complete = made.source === "PULL_FROM_URL" ? made.received > 0 : made.received === made.videoSize;
    if (made.status !== "PUBLISH_COMPLETE" && made.status !== "FAILED" && complete && !this.hold) {
      this.#finish(made);
    }
    return ok({
      status: made.status,
      ...(made.status === "FAILED" && { fail_reason: made.failReason }),
      ...(made.postId !== null && { publicaly_available_post_id: [made.postId] }),
      ...(made.source === "FILE_UPLOAD"
        ? { uploaded_bytes: made.received }
        : { downloaded_bytes: made.received }),
    });
  }

  #finish(made: FakePublish): void {
    const reason = made.failReason || this.failNext;
    if (reason) {
      this.failNext = null;
      made.status = "FAILED";
      made.failReason = reason;
      return;
    }
    made.status = "PUBLISH_COMPLETE";
    // Only public posts are given their id, once moderated.
    if (made.privacy === "PUBLIC_TO_EVERYONE") made.postId = String(this.#nextPost++);
  }

  #make(
    userId: string,
    mediaType: FakePublish["mediaType"],
    source: FakePublish["source"],
    title: string,
    body: { post_info?: Record<string, unknown> },
    urls: string[],
  ): FakePublish {
    const kind = source === "FILE_UPLOAD" ? "v_pub_file" : mediaType === "PHOTO" ? "p_pub_url" : "v_pub_url";
    const made: FakePublish = {
      publishId: `${kind}~v2-1.${BigInt(`0x${randomBytes(7).toString("hex")}`)}`,
      userId,
      mediaType,
      source,
      title,
      privacy: String(body.post_info?.privacy_level ?? ""),
      disableComment: body.post_info?.disable_comment === true,
      disableDuet: mediaType === "PHOTO" ? null : body.post_info?.disable_duet === true,
      disableStitch: mediaType === "PHOTO" ? null : body.post_info?.disable_stitch === true,
      videoSize: 0,
      chunkSize: 0,
      totalChunks: 0,
      received: 0,
      ranges: [],
      chunks: [],
      maxDurationSec: 0,
      uploadToken: randomBytes(12).toString("hex"),
      urls,
      status: source === "FILE_UPLOAD" ? "PROCESSING_UPLOAD" : "PROCESSING_DOWNLOAD",
      failReason: "",
      postId: null,
      madeAt: this.#now(),
      counts: { view_count: 120, like_count: 12, comment_count: 3, share_count: 1 },
    };
    this.all.set(made.publishId, made);
    return made;
  }

  /** TikTok fetches pulled media itself; what it cannot fetch, or is no video or photo, fails the post. */
  #pull(made: FakePublish): void {
    void Promise.all(
      made.urls.map((u) => fetch(u).then(async (r) => (r.ok ? new Uint8Array(await r.arrayBuffer()) : null))),
    )
      .catch(() => [null])
      .then((files) => {
        const good = files.every((f) => f !== null && (made.mediaType === "PHOTO" ? isImage(f) : isVideo(f)));
        if (!good) made.failReason = made.mediaType === "PHOTO" ? "photo_pull_failed" : "video_pull_failed";
        else if (made.mediaType === "VIDEO" && tooLong(files[0]!, made.maxDurationSec)) {
          made.failReason = "duration_check_failed";
        }
        made.received = files.reduce((n, f) => n + (f?.length ?? 0), 0) || 1;
      });
  }
}

/** TikTok's chunk rules, or null when the plan keeps them. */
function chunkProblem(size: number, chunk: number, count: number): string | null {
  if (![size, chunk, count].every((n) => Number.isInteger(n) && n > 0)) {
    return "video_size, chunk_size and total_chunk_count must be positive integers.";
  }
  if (size < 5 * MB) {
    return chunk === size && count === 1
      ? null
      : "A video under 5 MB is uploaded whole: chunk_size = video_size.";
  }
  if (chunk < 5 * MB || chunk > 64 * MB) return "chunk_size must be between 5 MB and 64 MB.";
  if (count !== Math.floor(size / chunk))
    return "total_chunk_count must be video_size / chunk_size, rounded down.";
  if (count > 1000) return "At most 1000 chunks.";
  if (size - (count - 1) * chunk > 128 * MB) return "The last chunk may be at most 128 MB.";
  return null;
}

/** TikTok measures the video it received; a length this fake cannot read passes, as WebM does here. */
function tooLong(bytes: Uint8Array, maxDurationSec: number): boolean {
  const length = mp4DurationSeconds(bytes);
  return maxDurationSec > 0 && length !== null && length > maxDurationSec;
}

function isVideo(bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes);
  return (
    b.subarray(4, 8).toString("latin1") === "ftyp" ||
    b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))
  );
}

function isImage(bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes);
  return (
    (b[0] === 0xff && b[1] === 0xd8) ||
    (b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP")
  );
}
