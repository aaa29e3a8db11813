import type { FakeGrant } from "../../common/fake-oauth.ts";
import type { FakeAnswer } from "../../common/fake-server.ts";
import { invalid, NOT_FOUND, problem } from "./problem.ts";

/*
 * The X fake's chunked media upload, as x-openapi.json and X's media guide describe it: initialize
 * (media_category, media_type, total_bytes) → append (segment_index 0–999, each segment at most 5 MB)
 * → finalize (the segments must add up to total_bytes) → STATUS while X processes a video or GIF
 * (pending, in_progress, then succeeded or failed, with check_after_secs). An upload expires
 * `expires_after_secs` after it was opened; X then answers it as not found.
 */

const SEGMENT_LIMIT_BYTES = 5 * 1024 * 1024;
/** X's limits per category. */
const LIMITS: Record<string, { bytes: number; types: RegExp }> = {
  tweet_video: { bytes: 512 * 1024 * 1024, types: /^video\/(mp4|quicktime)$/ },
  tweet_gif: { bytes: 15 * 1024 * 1024, types: /^image\/gif$/ },
};
const EXPIRES_AFTER_SECS = 86_400;

export interface XFakeUpload {
  id: string;
  userId: string;
  category: string;
  type: string;
  totalBytes: number;
  /** Bytes held per segment index (a segment sent again replaces itself). */
  segments: Map<number, number>;
  finalized: boolean;
  state: "pending" | "in_progress" | "succeeded" | "failed" | null;
  expiresAt: number;
}

export class XFakeChunkedUploads {
  readonly uploads = new Map<string, XFakeUpload>();
  /** Every append, in order: the upload and the segment index. */
  readonly appends: { id: string; index: number }[] = [];
  /** STATUS reads answered, across uploads. */
  statusReads = 0;
  /** While true, processing stays in_progress (a slow video); false lets it finish on the next STATUS. */
  holdProcessing = false;
  /** While true, processing ends as failed (a file X cannot use). */
  failProcessing = false;
  readonly #now: () => number;
  readonly #newId: () => string;

  constructor(now: () => number, newId: () => string) {
    this.#now = now;
    this.#newId = newId;
  }

  /** The upload a post may name: processed, the user's own, not expired. */
  ready(id: string, userId: string): boolean {
    const upload = this.#live(id);
    return upload?.userId === userId && upload.state === "succeeded";
  }

  /** Lets every upload lapse, as 24 hours would. */
  expireAll(): void {
    for (const upload of this.uploads.values()) upload.expiresAt = this.#now() - 1;
  }

  initialize(grant: FakeGrant, body: unknown): FakeAnswer {
    const { media_category, media_type, total_bytes } = (body ?? {}) as Record<string, unknown>;
    const limit = LIMITS[String(media_category)];
    if (!limit) return invalid("media_category must be tweet_video or tweet_gif for a chunked upload here.");
    if (typeof media_type !== "string" || !limit.types.test(media_type)) {
      return invalid(`media_type ${String(media_type)} is not supported for ${media_category}.`);
    }
    if (typeof total_bytes !== "number" || total_bytes <= 0 || total_bytes > limit.bytes) {
      return invalid(`total_bytes must be between 1 and ${limit.bytes} for ${media_category}.`);
    }
    const upload: XFakeUpload = {
      id: this.#newId(),
      userId: grant.userId,
      category: media_category as string,
      type: media_type,
      totalBytes: total_bytes,
      segments: new Map(),
      finalized: false,
      state: null,
      expiresAt: this.#now() + EXPIRES_AFTER_SECS * 1000,
    };
    this.uploads.set(upload.id, upload);
    return {
      status: 200,
      json: { data: { id: upload.id, media_key: `7_${upload.id}`, expires_after_secs: EXPIRES_AFTER_SECS } },
    };
  }

  append(grant: FakeGrant, id: string, form: FormData | null): FakeAnswer {
    const upload = this.#own(grant, id);
    if (!upload) return missing(id);
    if (upload.finalized) return invalid("The upload is already finalized.");
    const media = form?.get("media");
    const index = Number(form?.get("segment_index"));
    if (!(media instanceof Blob) || !Number.isInteger(index) || index < 0 || index > 999) {
      return invalid("media and segment_index (0-999) are required.");
    }
    if (media.size > SEGMENT_LIMIT_BYTES) return invalid("A segment must be at most 5 MB.");
    upload.segments.set(index, media.size);
    this.appends.push({ id, index });
    return { status: 200, json: { data: { expires_at: Math.floor(upload.expiresAt / 1000) } } };
  }

  finalize(grant: FakeGrant, id: string): FakeAnswer {
    const upload = this.#own(grant, id);
    if (!upload) return missing(id);
    let sum = 0;
    for (const bytes of upload.segments.values()) sum += bytes;
    if (sum !== upload.totalBytes) {
      return invalid(`File size mismatch: received ${sum} bytes, expected ${upload.totalBytes}.`);
    }
    if (!upload.finalized) {
      upload.finalized = true;
      upload.state = "pending";
    }
    return { status: 200, json: { data: this.#data(upload) } };
  }

  status(grant: FakeGrant, id: string | null): FakeAnswer {
    const upload = id ? this.#own(grant, id) : null;
    if (!upload?.finalized) return missing(id ?? "");
    this.statusReads += 1;
    if (upload.state === "pending" || upload.state === "in_progress") {
      upload.state = this.holdProcessing ? "in_progress" : this.failProcessing ? "failed" : "succeeded";
    }
    return { status: 200, json: { data: this.#data(upload) } };
  }

  #data(upload: XFakeUpload) {
    const processing =
      upload.state === "succeeded" || upload.state === "failed"
        ? { state: upload.state, progress_percent: 100 }
        : { state: upload.state, check_after_secs: 1, progress_percent: upload.state === "pending" ? 0 : 50 };
    return {
      id: upload.id,
      media_key: `7_${upload.id}`,
      size: upload.totalBytes,
      expires_after_secs: Math.max(0, Math.floor((upload.expiresAt - this.#now()) / 1000)),
      processing_info: processing,
      ...(upload.category === "tweet_video" &&
        upload.state === "succeeded" && { video: { video_type: upload.type } }),
    };
  }

  #live(id: string): XFakeUpload | null {
    const upload = this.uploads.get(id);
    return upload && upload.expiresAt > this.#now() ? upload : null;
  }

  #own(grant: FakeGrant, id: string): XFakeUpload | null {
    const upload = this.#live(id);
    return upload?.userId === grant.userId ? upload : null;
  }
}

function missing(id: string): FakeAnswer {
  return problem(404, "Not Found Error", `Could not find media with id: [${id}].`, NOT_FOUND);
}
