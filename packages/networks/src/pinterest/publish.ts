import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
  publishThread,
} from "@socialpub/core";
import { type PinterestApiConfig, pinterestCall } from "./api.ts";
import { findPinOn } from "./find-published.ts";

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

/** A carousel pin takes 2 to 5 images (PinMediaSourceImagesBase64 in Pinterest's description). */
export const PINTEREST_MAX_CAROUSEL_IMAGES = 5;

/**
 * Creates one pin (POST /v5/pins) on the board chosen at connect (or `options.board_id`): the text as
 * its description, its first line as the title (or `options.title`), its first web address as the
 * destination link (or `options.link`), the image sent inline (base64) with its alt text. Two to five
 * images make a carousel pin (`multiple_image_base64`, in order); Pinterest takes one alt text per pin,
 * so the first image's that has one is the pin's. Pinterest needs an image; a post with none, with a
 * video, or with more than five images is refused before anything is sent. Pinterest's API takes no
 * comment from the pin's maker: a first comment is not carried (the service notes it).
 */
export async function publishPinterest(
  api: PinterestApiConfig,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const options = post.options ?? {};
  const chosen = (value: unknown) => (typeof value === "string" && value.length > 0 ? value : undefined);
  const boardId = chosen(options.board_id) ?? String(account.credentials.board_id ?? "");
  const images = checkedImages(post.media);
  const link = chosen(options.link) ?? FIRST_URL.exec(post.text)?.[0];
  const title = chosen(options.title)
    ? [...chosen(options.title)!].slice(0, TITLE_LIMIT).join("")
    : pinTitle(post.text);
  const alt = images.find((image) => image.alt)?.alt;
  const body = {
    board_id: boardId,
    description: post.text,
    ...(title && { title }),
    ...(link && link.length <= LINK_LIMIT && { link }),
    ...(alt && { alt_text: [...alt].slice(0, ALT_LIMIT).join("") }),
    media_source: images.length === 1 ? imageSource(images[0]!) : carouselSource(images),
  };
  const pin = async (): Promise<PublishedPost> => {
    const answer = (await pinterestCall(api, token, "POST", "/pins", body, post.signal)) as {
      id?: unknown;
    };
    if (typeof answer?.id !== "string") {
      throw new NetworkError(
        "pinterest",
        "unknown",
        "Pinterest answered the pin without its id; check the board.",
      );
    }
    return { id: answer.id, permalink: pinterestPermalink(answer.id) };
  };
  // A pin on the board chosen at connect, titled by its first line, is what the service's read-back
  // looks for after a lost answer; one whose board or title came from its options keeps its progress
  // in the step, so it is looked for where and as it was sent.
  if (chosen(options.board_id) === undefined && chosen(options.title) === undefined) return pin();
  return publishThread(
    "pinterest",
    { ...post, firstComment: null },
    {
      async send(part) {
        await part.saveStep({ [SENT_SINCE]: api.now() });
        return pin();
      },
      async find(part) {
        const since = part.step?.[SENT_SINCE];
        // No time saved: that attempt stopped before the pin was sent.
        if (typeof since !== "number") return null;
        const sent = { text: post.text, title, board: boardId, since: since - CLOCK_SLACK_MS };
        return findPinOn(api, account, sent, post.signal);
      },
    },
  );
}

/** The step's key for when the pin was sent (Unix ms), so a lost answer is looked for from then. */
const SENT_SINCE = "pinterest_sent_at";
/** How far Pinterest's clock may be behind ours. */
const CLOCK_SLACK_MS = 60_000;

const base64 = (image: MediaFile) => Buffer.from(image.bytes).toString("base64");

function imageSource(image: MediaFile) {
  return { source_type: "image_base64", content_type: image.contentType, data: base64(image) };
}

function carouselSource(images: readonly MediaFile[]) {
  return {
    source_type: "multiple_image_base64",
    items: images.map((image) => ({ content_type: image.contentType, data: base64(image) })),
  };
}

function checkedImages(media: readonly MediaFile[]): readonly MediaFile[] {
  const refuse = (why: string) => new NetworkError("pinterest", "refused", `Pinterest: ${why}`);
  if (media.length === 0) throw refuse("a pin needs an image; add one to the post.");
  if (media.length > PINTEREST_MAX_CAROUSEL_IMAGES)
    throw refuse(
      `a carousel pin takes 2 to ${PINTEREST_MAX_CAROUSEL_IMAGES} images; the post has ${media.length}.`,
    );
  for (const image of media) {
    if (image.contentType !== "image/jpeg" && image.contentType !== "image/png") {
      throw refuse(`this server pins JPEG and PNG images; ${image.contentType} is not one of them.`);
    }
    if (image.bytes.length > PINTEREST_MAX_IMAGE_BYTES) {
      throw refuse("Pinterest takes images up to 20 MB; one of the post's images is larger.");
    }
  }
  return media;
}
