import type { z } from "zod";
import type { MediaUrlBody } from "../../contract/requests.ts";
import { Media } from "../../contract/resources.ts";
import type { Requester, RequestOptions } from "../requester.ts";

/** Media already online: its URL, and its type when the URL does not end in a known extension. */
export type MediaUrlInput = z.input<typeof MediaUrlBody>;

/** Media as bytes, with their image or video media type (e.g. `image/png`). */
export interface MediaBytesInput {
  data: Uint8Array | ArrayBuffer | Blob;
  contentType: string;
}

export class MediaResource {
  readonly #send: Requester;

  constructor(send: Requester) {
    this.#send = send;
  }

  /**
   * Uploads bytes, or registers a URL. The answer's `id` (med_…) can be used as `media` when creating
   * posts; a media.processed event follows.
   */
  async upload(input: MediaUrlInput | MediaBytesInput, options?: RequestOptions): Promise<Media> {
    if ("url" in input) {
      const json = input.type === undefined ? { url: input.url } : { url: input.url, type: input.type };
      return (await this.#send({ method: "POST", path: "/media", json, schema: Media, options })).data;
    }
    if (!input.contentType)
      throw new TypeError("contentType is required when uploading bytes, e.g. image/png.");
    // A copy the client owns: it is sent again unchanged on every retry.
    const data = new Uint8Array(input.data instanceof Blob ? await input.data.arrayBuffer() : input.data);
    return (
      await this.#send({
        method: "POST",
        path: "/media",
        bytes: { data, contentType: input.contentType },
        schema: Media,
        options,
      })
    ).data;
  }
}
