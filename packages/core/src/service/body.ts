import { HttpError } from "./http-error.ts";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

function tooLarge(maxBytes: number): HttpError {
  const size = maxBytes % (1024 * 1024) === 0 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes} bytes`;
  return new HttpError(413, `Request body is larger than ${size}; send less.`);
}

/** The media type of a Content-Type header, lower-cased, without parameters; null without one. */
export function mediaTypeOf(value: string | null): string | null {
  return value ? value.split(";")[0]!.trim().toLowerCase() : null;
}

/** True when the Content-Type is JSON (application/json or any application/*+json). */
export function isJsonContentType(value: string | null): boolean {
  const type = mediaTypeOf(value);
  return type === "application/json" || (!!type?.startsWith("application/") && type.endsWith("+json"));
}

/**
 * 415 for a body sent with a Content-Encoding other than identity (gzip, br, …). The service does not
 * decode bodies, and reading compressed bytes as JSON or media would misread them — a confusing 400,
 * or an upload stored compressed. RFC 7694: the answer's Accept-Encoding says what is accepted.
 */
function refuseEncodedBody(request: Request): void {
  const header = request.headers.get("content-encoding");
  if (header === null) return;
  const codings = header
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  if (codings.length === 0) return;
  throw new HttpError(
    415,
    `Content-Encoding ${codings.join(", ")} is not supported; send the body uncompressed, without Content-Encoding.`,
    { "accept-encoding": "identity" },
  );
}

/**
 * Reads the body, refusing it with 415 when it is compressed (see `refuseEncodedBody`), and with 413 as
 * soon as it is known to exceed `maxBytes`: from Content-Length before reading, or from the bytes read
 * so far (never reading past the limit).
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  refuseEncodedBody(request);
  const declared = request.headers.get("content-length");
  const length = declared === null ? Number.NaN : Number(declared);
  if (length > maxBytes) throw tooLarge(maxBytes);
  if (Number.isSafeInteger(length) && length >= 0) {
    // A body framed by its length, within the limit: HTTP delivers no more than it declares, so it is
    // read whole. Read so, a Node adapter (@hono/node-server) hands over the bytes it received without
    // building a web ReadableStream and Request around them, a few per cent of a write's time. Checked
    // again after reading: an in-process Request may declare one length and carry another.
    const bytes = new Uint8Array(await request.arrayBuffer().catch(incompleteBody));
    if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
    return bytes;
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(incompleteBody);
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The body broke while being read: the client went away mid-body, or a server layer cut it off (its
 * own limit). Either way the cause is the request, not a defect: a 400 the server may replace with its own.
 */
function incompleteBody(): never {
  throw new HttpError(400, "The request body ended before it was complete; send the whole body.");
}

/** UTF-8 text of a body; 400 when it is not UTF-8. */
export function decodeBody(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, "Request body is not valid UTF-8; send JSON encoded as UTF-8.");
  }
}

/** Parses a JSON body: 400 when it is missing (unless `optional`, then `{}`) or does not parse. */
export function parseJsonText(text: string, optional: boolean): unknown {
  if (text.trim() === "") {
    if (optional) return {};
    throw new HttpError(400, "Request body is empty; send a JSON object.");
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    const detail = err instanceof SyntaxError ? ` (${err.message})` : "";
    throw new HttpError(400, `Request body is not valid JSON${detail}; send a JSON object.`);
  }
}
