import { fileTypeFromBuffer } from "file-type";
import { NETWORK_RULES } from "../contract/networks.ts";
import { checkWebhookUrl } from "../net/public-url.ts";
import { type MediaFile, NetworkError } from "../networks/adapter.ts";
import { postMedia } from "../posting/content.ts";
import type { ServiceDeps } from "../service/context.ts";
import { HttpError } from "../service/http-error.ts";
import { storageKeyOf } from "../service/media-storage.ts";
import type { MediaRef, PostRecord } from "../store/types.ts";

const MAX_REDIRECTS = 3;

/**
 * Media items of a post as bytes, in order, each with its alt text: fetchMediaItem for each. `refs`
 * defaults to the post's own media list.
 */
export async function fetchPostMedia(
  deps: ServiceDeps,
  post: PostRecord,
  platform: PostRecord["platforms"][number],
  maxBytes: number,
  signal: AbortSignal,
  refs: readonly MediaRef[] = postMedia(post),
): Promise<MediaFile[]> {
  const files: MediaFile[] = [];
  for (const [i, item] of refs.entries()) {
    const file = await fetchMediaItem(
      deps,
      post,
      item.ref,
      platform,
      maxBytes,
      signal,
      refs.length > 1 ? i + 1 : 0,
    );
    files.push(item.alt === undefined ? file : { ...file, alt: item.alt });
  }
  return files;
}

/**
 * One media item of a post as bytes, for an adapter that uploads them. The service fetches a media URL itself,
 * under the rule webhook URLs follow (http(s), public addresses only unless the server allows private
 * ones), checking every redirect the same way, and stops reading past the network's size limit. Failures
 * are classified like a network's: a host that does not answer → retry; anything the user must fix
 * (an address, a size, bytes that are not an image or video) → refused, with what to do.
 */
async function fetchMediaItem(
  deps: ServiceDeps,
  post: PostRecord,
  ref: string,
  platform: PostRecord["platforms"][number],
  maxBytes: number,
  signal: AbortSignal,
  /** The item's number in a list of several; 0 for a post's only media. */
  number: number,
): Promise<MediaFile> {
  const name = NETWORK_RULES[platform].name;
  const whose = number === 0 ? "the post's media" : `the post's media item ${number}`;
  const refuse = (why: string) => new NetworkError(platform, "refused", `${name}: ${whose} ${why}`);
  let url = ref;
  if (ref.startsWith("med_")) {
    const record = await deps.store.getMedia(post.user_id, ref);
    if (!record) throw refuse(`${ref} no longer exists; upload it again and publish a new post.`);
    if (record.path !== null) {
      const stored = await deps.media.get(storageKeyOf(record));
      if (!stored) throw refuse(`${ref} has no stored bytes; upload it again.`);
      if (stored.bytes.length > maxBytes) throw refuse(tooLarge(stored.bytes.length, maxBytes, name));
      // Networks that fetch media themselves (Threads, Instagram) are given the upload's unguessable
      // content address on the server's public URL, which is how they reach it.
      const at = new URL(record.url);
      const publicUrl = deps.publishing.publicUrl;
      const url = publicUrl ? `${publicUrl}${at.pathname}` : at.href;
      return await mediaFile(stored.bytes, url, refuse);
    }
    url = record.url;
  }
  for (let hop = 0; ; hop++) {
    try {
      url = await checkWebhookUrl(url, deps.webhooks.allowPrivateUrls, deps.webhooks.lookupHost);
    } catch (err) {
      if (err instanceof HttpError)
        throw refuse(`URL was refused: ${err.message.replace(/^url/, "its URL")}`);
      throw err;
    }
    let response: Response;
    try {
      response = await deps.publishing.mediaFetch(url, { signal });
    } catch (cause) {
      if (codeOf(cause) === "EPRIVATEADDRESS") {
        throw refuse(
          `URL was refused: ${hostOf(url)} resolves to a loopback, private or link-local address; media must be on a public address.`,
        );
      }
      throw new NetworkError(
        platform,
        "retry",
        `${name}: the media URL could not be fetched (${hostOf(url)} did not answer); it will be tried again.`,
        { cause },
      );
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS)
        throw refuse(`URL redirects more than ${MAX_REDIRECTS} times; give the file's own URL.`);
      url = new URL(response.headers.get("location")!, url).href;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      const kind = response.status >= 500 || response.status === 429 ? "retry" : "refused";
      throw new NetworkError(
        platform,
        kind,
        `${name}: fetching the media URL answered ${response.status}; check that ${hostOf(url)} serves the file publicly.`,
        { status: response.status },
      );
    }
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw refuse(tooLarge(declared, maxBytes, name));
    }
    const bytes = await readAtMost(response, maxBytes);
    if (bytes === null) throw refuse(tooLarge(maxBytes + 1, maxBytes, name));
    return await mediaFile(bytes, url, refuse);
  }
}

async function mediaFile(
  bytes: Uint8Array,
  url: string,
  refuse: (why: string) => NetworkError,
): Promise<MediaFile> {
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !/^(image|video)\//.test(type.mime)) {
    throw refuse("is not an image or video this service recognises; give the image or video file itself.");
  }
  return { bytes, contentType: type.mime, filename: `media.${type.ext}`, url };
}

/** The whole body, or null as soon as it passes `max` bytes. */
async function readAtMost(response: Response, max: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return new Uint8Array(0);
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) {
      await response.body?.cancel().catch(() => {});
      return null;
    }
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

function tooLarge(size: number, max: number, name: string): string {
  const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;
  return `is larger than the ${mb(max)} ${name} takes${size > max + 1 ? ` (${mb(size)})` : ""}; give a smaller file.`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the host";
  }
}

/** The error code under a failed fetch (its cause chain). */
function codeOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
