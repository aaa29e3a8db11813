import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
} from "@socialpub/core";
import { type PinterestApiConfig, pinterestCall } from "./api.ts";

/** Pinterest takes images up to 20 MB. */
export const PINTEREST_MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** Pinterest's own limits on a pin's fields. */
const TITLE_LIMIT = 100;
const ALT_LIMIT = 500;
const LINK_LIMIT = 2048;
/** The first web address in the text: a pin's destination link. */
const FIRST_URL = /https?:\/\/[^\s<>"]+/;

export const pinterestPermalink = (id: string) => `https://www.pinterest.com/pin/${id}/`;

/** The pin's title: the text's first line, cut to Pinterest's 100 characters. */
export function pinTitle(text: string): string {
  const line = text.split("\n", 1)[0]!.trim();
  return [...line].slice(0, TITLE_LIMIT).join("");
}

/**
 * Creates one image pin (POST /v5/pins) on the board chosen at connect: the text as its description,
 * its first line as the title, its first web address as the destination link, the image sent inline
 * (base64). Pinterest needs an image; a post with none, with a video, or with more than one image is
 * refused before anything is sent.
 */
export async function publishPinterest(
  api: PinterestApiConfig,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const boardId = String(account.credentials.board_id ?? "");
  const image = onlyImage(post.media);
  const link = FIRST_URL.exec(post.text)?.[0];
  const title = pinTitle(post.text);
  const body = {
    board_id: boardId,
    description: post.text,
    ...(title && { title }),
    ...(link && link.length <= LINK_LIMIT && { link }),
    ...(image.alt && { alt_text: [...image.alt].slice(0, ALT_LIMIT).join("") }),
    media_source: {
      source_type: "image_base64",
      content_type: image.contentType,
      data: Buffer.from(image.bytes).toString("base64"),
    },
  };
  const answer = (await pinterestCall(api, token, "POST", "/pins", body, post.signal)) as { id?: unknown };
  if (typeof answer?.id !== "string") {
    throw new NetworkError(
      "pinterest",
      "unknown",
      "Pinterest answered the pin without its id; check the board.",
    );
  }
  return { id: answer.id, permalink: pinterestPermalink(answer.id) };
}

function onlyImage(media: readonly MediaFile[]): MediaFile {
  const refuse = (why: string) => new NetworkError("pinterest", "refused", `Pinterest: ${why}`);
  if (media.length === 0) throw refuse("a pin needs an image; add one to the post.");
  if (media.length > 1) throw refuse("this server pins one image per post; the post has more.");
  const image = media[0]!;
  if (image.contentType !== "image/jpeg" && image.contentType !== "image/png") {
    throw refuse(`this server pins JPEG and PNG images; ${image.contentType} is not one of them.`);
  }
  if (image.bytes.length > PINTEREST_MAX_IMAGE_BYTES) {
    throw refuse("Pinterest takes images up to 20 MB; the post's image is larger.");
  }
  return image;
}
