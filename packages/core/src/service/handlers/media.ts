import { fileTypeFromBuffer } from "file-type";
import type { z } from "zod";
import { mediaTypeOfUrl } from "../../contract/media-kinds.ts";
import type { MediaUrlBody } from "../../contract/requests.ts";
import type { Media } from "../../contract/resources.ts";
import { newId } from "../../ids.ts";
import type { MediaRecord } from "../../store/types.ts";
import type { RequestContext } from "../context.ts";
import { badRequest, HttpError } from "../http-error.ts";
import { storageKey, storageKeyOf } from "../media-storage.ts";
import { publicOriginOf } from "../public-origin.ts";
import { json } from "../responses.ts";
import { apiBaseOf } from "../route.ts";

/** Content types accepted as uploads and as declared types of remote media. */
export const MEDIA_TYPE = /^(image|video)\/[a-z0-9.+-]+$/;

/**
 * The capability in an upload's content URL: 24 random bytes (192 bits), base64url. The URL is the only
 * thing that reaches the bytes without a key, so it must not be guessable from anything an API user
 * sees — ids made in one millisecond are sequential, and a med_ id is shown to webhooks and in posts.
 */
function newContentToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url");
}

const CONTENT_TOKEN = /^[A-Za-z0-9_-]{32}$/;

function toMedia(m: MediaRecord): Media {
  return { id: m.id, url: m.url, type: m.type, size: m.size, status: m.status };
}

/**
 * POST /media: raw image or video bytes (kept by the media storage and served back at a URL of this
 * service), or JSON {url, type?} for media already online. Sandbox processing is immediate: status
 * ready and a media.processed event.
 */
export async function createMedia({
  deps,
  caller,
  body,
  upload,
  url: requestUrl,
  request,
  keptAnswer,
}: RequestContext<z.output<typeof MediaUrlBody>>): Promise<Response> {
  const now = deps.clock.now();
  const id = newId("med", now);
  let record: MediaRecord;
  if (upload) {
    if (upload.bytes.length === 0) throw badRequest("The upload is empty; send the image or video bytes.");
    const type = await uploadedType(upload.bytes, upload.type);
    const token = newContentToken();
    const path = await deps.media.put(storageKey(id, token), upload.bytes, type);
    record = {
      id,
      user_id: caller.user.id,
      // At the address and in the form (/v1 or /api/v1) the client uploaded it by.
      url: `${publicOriginOf(request, requestUrl, deps.trustProxy === true)}${apiBaseOf(requestUrl)}/media/${id}/content/${token}`,
      type,
      size: upload.bytes.length,
      status: "ready",
      path,
      created_at: now,
    };
  } else {
    record = {
      id,
      user_id: caller.user.id,
      url: remoteUrl(body.url),
      type: remoteType(body.url, body.type),
      size: 0,
      status: "ready",
      path: null,
      created_at: now,
    };
  }
  await deps.store.insertMedia(record, {
    events: [
      {
        id: newId("evt", now),
        user_id: record.user_id,
        type: "media.processed",
        created: Math.floor(now / 1000),
        data: { media_id: record.id, url: record.url, type: record.type, size: record.size },
      },
    ],
    idempotency: keptAnswer(201, toMedia(record)),
  });
  return json(201, toMedia(record));
}

function contentResponse(found: { bytes: Uint8Array<ArrayBuffer>; type: string }, cache: string): Response {
  return new Response(found.bytes, {
    status: 200,
    headers: {
      "content-type": found.type,
      "content-length": String(found.bytes.length),
      "cache-control": cache,
    },
  });
}

/**
 * GET /media/{id}/content/{token} (no key, so networks can fetch it): the uploaded bytes, for whoever
 * holds the URL POST /media answered. A wrong or missing token is 404, as an unknown id is.
 */
export async function getMediaContent({ deps, params }: RequestContext): Promise<Response> {
  const { id, token } = params as { id: string; token: string };
  const found = CONTENT_TOKEN.test(token) ? await deps.media.get(storageKey(id, token)) : null;
  if (!found) throw new HttpError(404, "Not found.");
  return contentResponse(found, "public, max-age=31536000, immutable");
}

/** GET /media/{id}/content, with a key: the bytes of one of the caller's own uploads; anyone else's is 404. */
export async function getOwnMediaContent({ deps, caller, params }: RequestContext): Promise<Response> {
  const record = await deps.store.getMedia(caller.user.id, params.id!);
  const found = record?.path ? await deps.media.get(storageKeyOf(record)) : null;
  if (!found) throw new HttpError(404, "Not found.");
  return contentResponse(found, "private, no-store");
}

/**
 * The type of uploaded bytes, told from their content (magic numbers), not from the Content-Type the
 * client declared: bytes that are not a known image or video format are refused whatever they claim
 * to be, and media declared with the wrong image or video type are kept as what they are.
 */
async function uploadedType(bytes: Uint8Array, declared: string): Promise<string> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected && MEDIA_TYPE.test(detected.mime)) return detected.mime;
  const seen = detected ? ` (they look like ${detected.mime})` : "";
  throw badRequest(
    `The upload was sent as ${declared}, but its bytes are not an image or video format this service recognises${seen}; send the image or video file itself.`,
  );
}

function remoteUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest("url must be an absolute http(s) URL of an image or video.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw badRequest("url must be an absolute http(s) URL of an image or video.");
  }
  return url.href;
}

function remoteType(url: string, declared: string | undefined): string {
  if (declared !== undefined) {
    const type = declared.trim().toLowerCase();
    if (!MEDIA_TYPE.test(type))
      throw badRequest(`type must be an image/… or video/… MIME type, not ${declared}.`);
    return type;
  }
  const type = mediaTypeOfUrl(url);
  if (!type) {
    throw badRequest(
      'The type of this media cannot be told from its URL; add type, e.g. {"url": "…", "type": "image/png"}.',
    );
  }
  return type;
}
