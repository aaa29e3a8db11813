import { HttpError } from "./http-error.ts";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

function tooLarge(maxBytes: number): HttpError {
  const size = maxBytes % (1024 * 1024) === 0 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes} bytes`;
  return new HttpError(413, `Request body is larger than ${size}; send less.`);
}

/** True when the Content-Type is JSON (application/json or any application/*+json). */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * Reads the body as text, refusing it with 413 as soon as it is known to exceed `maxBytes`: from
 * Content-Length before reading, or from the bytes read so far (never reading past the limit).
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
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
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, "Request body is not valid UTF-8; send JSON encoded as UTF-8.");
  }
}

/**
 * The text of a body that must be JSON: 415 for another Content-Type (a request without a body needs
 * none), 413 when too large. Parsing is separate so the raw text can be fingerprinted first.
 */
export async function readJsonText(request: Request, maxBytes: number): Promise<string> {
  const contentType = request.headers.get("content-type");
  const text = await readBodyText(request, maxBytes);
  if (isJsonContentType(contentType) || (text === "" && contentType === null)) return text;
  throw new HttpError(
    415,
    `Content-Type must be application/json${contentType ? `, not ${contentType.split(";")[0]}` : ""}.`,
  );
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
