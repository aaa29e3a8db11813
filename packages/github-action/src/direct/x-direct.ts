// X in direct mode: the four OAuth 1.0a user-context credentials of the user's own app sign every call
// (publishXDirect, findXDirect of @socialpub/networks/x), outside the in-job service (networks.ts says
// why). The post is made as the service would make it: the text fitted to X, or with `long-notes:
// thread` split into a thread of replies; the media with alt text; the first comment as a reply. X takes
// no key of ours, so a re-run finds what this release already posted on the account (its posts since
// the release) and sends only what is missing: a thread stopped part way goes on from the first part
// not there, and a complete one is not posted again.
import {
  adaptText,
  MAX_THREAD_PARTS,
  type MediaFile,
  type MediaItem,
  measure,
  NETWORK_RULES,
  NetworkError,
  splitText,
  textLimitFor,
} from "@socialpub/core";
import { findXDirect, publishXDirect, type XOAuth1Credentials } from "@socialpub/networks/x";
import type { NewPost } from "../publisher.ts";
import { requiredInputsText } from "./credentials.ts";
import { DirectConnectError } from "./in-job-service.ts";

/** The most parts a thread has: the post and its further parts (decisions.md "Rich posts"). */
const MAX_PARTS = 1 + MAX_THREAD_PARTS;

/** How long X may take to check the credentials, or to post the whole thread with its media. */
const CHECK_TIMEOUT_MS = 30_000;
const PUBLISH_TIMEOUT_MS = 120_000;
/** X's largest upload (a video); an image beyond X's own limit is refused by X with its reason. */
const MAX_MEDIA_BYTES = 512 * 1024 * 1024;
/** X's clock and GitHub's may differ: a post of this release is looked for from a minute before it. */
const CLOCK_SKEW_MS = 60_000;

export interface XDirectOutcome {
  status: "published" | "already-posted" | "failed";
  permalink: string | null;
  error: string | null;
  /** The first part's text as sent. */
  text: string;
  /** How many parts the thread has, and how many an earlier run had posted. */
  parts: number;
  found: number;
}

export interface XDirect {
  /** Asks X who the credentials post as: throws DirectConnectError (X's reason) when X refuses them. */
  check(): Promise<void>;
  publish(post: NewPost, releaseTimeMs: number): Promise<XDirectOutcome>;
}

/** X's address: SOCIALPUB_X_API_URL (a local stand-in in the Action's tests), else X's own. */
export function xDirect(credentials: XOAuth1Credentials, env: NodeJS.ProcessEnv): XDirect {
  const apiUrl = env.SOCIALPUB_X_API_URL || undefined;
  const options = (timeoutMs: number) => ({
    ...(apiUrl && { apiUrl }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return {
    async check() {
      try {
        await findXDirect(credentials, { texts: [], since: 0 }, options(CHECK_TIMEOUT_MS));
      } catch (error) {
        const reason = reasonOf(error);
        throw new DirectConnectError(
          error instanceof NetworkError && error.kind === "retry"
            ? `X could not be reached to check ${requiredInputsText("x")} (${reason}). Nothing was posted; re-run the job later.`
            : `X refused ${requiredInputsText("x")}: ${reason} Nothing was posted; fix the secrets and re-run the job.`,
        );
      }
    },
    async publish(post, releaseTimeMs) {
      const hasMedia = post.media !== undefined;
      const parts = xParts(post, hasMedia);
      const [first = "", ...rest] = parts;
      const failed = (error: unknown): XDirectOutcome => ({
        status: "failed",
        permalink: null,
        error: reasonOf(error),
        text: first,
        parts: parts.length,
        found: 0,
      });
      let media: MediaFile[];
      try {
        media = await fetchMedia(post.media, options(PUBLISH_TIMEOUT_MS).signal);
      } catch (error) {
        return failed(error);
      }
      try {
        const result = await publishXDirect(
          credentials,
          {
            text: first,
            media,
            thread: rest.map((text) => ({ text, media: [] })),
            firstComment: post.first_comment ?? null,
            since: Math.max(0, releaseTimeMs - CLOCK_SKEW_MS),
          },
          options(PUBLISH_TIMEOUT_MS),
        );
        const comment = result.firstComment;
        return {
          status: result.found >= parts.length ? "already-posted" : "published",
          permalink: result.permalink,
          // A first comment that fails does not fail the post; it is said in the result.
          error:
            comment?.status === "failed"
              ? `the post was made, but its first comment failed: ${comment.error ?? "no reason given"}`
              : null,
          text: first,
          parts: parts.length,
          found: result.found,
        };
      } catch (error) {
        return failed(error);
      }
    },
  };
}

/**
 * X's text as parts: the X caption fitted to X's limit, or, with `long-notes: thread` and a text
 * longer than X takes, split into the parts of a thread.
 */
export function xParts(post: Pick<NewPost, "caption" | "captions" | "split">, hasMedia: boolean): string[] {
  const text = post.captions?.x ?? post.caption;
  const limit = textLimitFor("x", hasMedia);
  const unit = NETWORK_RULES.x.lengthUnit;
  // The service's own split, so X gets the same thread in direct mode as through a service.
  if (post.split === "thread" && measure(text, unit) > limit) return splitText(text, limit, unit, MAX_PARTS);
  return [adaptText(text, "x", hasMedia)];
}

/** An error's message: X's reason, which names no credential. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `media` input's items, fetched for X's upload, with their alt text. */
async function fetchMedia(media: NewPost["media"], signal: AbortSignal): Promise<MediaFile[]> {
  if (media === undefined) return [];
  const items: MediaItem[] = typeof media === "string" ? [media] : media;
  const files: MediaFile[] = [];
  for (const item of items) {
    const url = typeof item === "string" ? item : "url" in item ? item.url : item.id;
    const alt = typeof item === "string" ? undefined : item.alt;
    files.push({ ...(await fetchOne(url, signal)), ...(alt !== undefined && { alt }) });
  }
  return files;
}

async function fetchOne(url: string, signal: AbortSignal): Promise<MediaFile> {
  const refuse = (why: string) => new NetworkError("x", "refused", `X: the media ${url} ${why}`);
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: "follow" });
  } catch (error) {
    throw refuse(`could not be fetched: ${(error as Error).message}.`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw refuse(`could not be fetched: the server answered ${response.status}.`);
  }
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!/^(image|video)\//.test(contentType)) {
    await response.body?.cancel();
    throw refuse(`is not an image or a video (its server says ${contentType || "nothing"}).`);
  }
  const declared = Number(response.headers.get("content-length"));
  if (declared > MAX_MEDIA_BYTES) {
    await response.body?.cancel();
    throw refuse(`is ${declared} bytes; X takes at most ${MAX_MEDIA_BYTES}.`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > MAX_MEDIA_BYTES)
    throw refuse(`is ${bytes.length} bytes; X takes at most ${MAX_MEDIA_BYTES}.`);
  const filename = decodeURIComponent(new URL(response.url || url).pathname.split("/").pop() || "media");
  return { bytes, contentType, filename, url };
}
