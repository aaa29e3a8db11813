import { MediaUrlBody } from "../../contract/requests.ts";
import { Media } from "../../contract/resources.ts";
import { createMedia, getMediaContent, getOwnMediaContent, MEDIA_TYPE } from "../handlers/media.ts";
import { type AnyRoute, defineRoute } from "../route.ts";
import { MEDIA_BYTES, mediaContent, mediaId } from "./params.ts";

/** Media: upload, and the bytes served to networks and to the owner. */
export const MEDIA_ROUTES: readonly AnyRoute[] = [
  defineRoute({
    method: "POST",
    path: "/media",
    operationId: "createMedia",
    tag: "Media",
    summary: "Upload an image or video (raw bytes), or register one by URL; reuse it by its med_ id",
    description:
      "Send the bytes with an image/… or video/… Content-Type (at most 1 MiB; larger media by URL), or JSON {url, type?}. Answers status ready at once and writes media.processed.",
    auth: true,
    body: { schema: MediaUrlBody },
    upload: { types: MEDIA_TYPE, description: "an image/… or video/… type for an upload" },
    responses: {
      201: { description: "The media.", schema: Media },
      400: {
        description:
          "The URL is not http(s), its type cannot be told, or the upload is empty or its bytes are not an image or video.",
      },
    },
    handler: createMedia,
  }),
  defineRoute({
    method: "GET",
    path: "/media/{id}/content/{token}",
    operationId: "getMediaContent",
    tag: "Media",
    summary:
      "The bytes of an uploaded image or video, at the URL POST /media answered (no key: networks fetch it)",
    description:
      "The token is 192 random bits given only in the upload's url: the URL is the capability, so share it as you would a key. A wrong token is 404.",
    auth: false,
    // The bytes are in the media storage (files), not the store.
    storeUnavailable: false,
    params: mediaContent,
    responses: {
      200: { description: "The bytes, with their Content-Type.", bytes: MEDIA_BYTES },
      404: { description: "No upload with that id and token (`Not found.`)." },
    },
    handler: getMediaContent,
  }),
  defineRoute({
    method: "GET",
    path: "/media/{id}/content",
    operationId: "getOwnMediaContent",
    tag: "Media",
    summary: "The bytes of one of your own uploads, by its med_ id (with a key)",
    auth: true,
    params: mediaId,
    responses: {
      200: { description: "The bytes, with their Content-Type.", bytes: MEDIA_BYTES },
      404: { description: "No upload with that id belongs to the account (`Not found.`)." },
    },
    handler: getOwnMediaContent,
  }),
];
