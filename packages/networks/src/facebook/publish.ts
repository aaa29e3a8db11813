import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
} from "@socialpub/core";
import { type FacebookApiConfig, graphCall } from "./api.ts";
import { publishVideo } from "./video.ts";

/** Facebook takes photos up to 10 MB. */
export const FACEBOOK_MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES = /^image\/(jpeg|png|gif|webp)$/;

/** A Page post's id is `{page-id}_{post-id}`; facebook.com resolves it to the post. */
export const facebookPermalink = (postId: string) => `https://www.facebook.com/${postId}`;

/** The most photos this server attaches to one Page post (as many as a carousel elsewhere). */
export const FACEBOOK_MAX_PHOTOS = 10;

/**
 * Publishes to the Page chosen at connect with its Page token: text as a feed post (POST
 * /{page-id}/feed), a photo post with the text as its caption (POST /{page-id}/photos, the image
 * uploaded in the same request, its alt text as `alt_text_custom`), several photos in one post (each
 * uploaded unpublished, then attached to a feed post), or a video with the text as its description
 * (video.ts).
 */
export async function publishFacebook(
  api: FacebookApiConfig,
  account: AccountSession,
  post: Pick<PublishInput, "text" | "media" | "signal">,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const page = encodeURIComponent(String(account.credentials.page_id ?? ""));
  if (post.media.length > 1) return publishPhotos(api, token, page, post);
  if (post.media.length === 0) {
    const answer = (await graphCall(
      api,
      token,
      "POST",
      `/${page}/feed`,
      new URLSearchParams({ message: post.text }),
      post.signal,
    )) as {
      id?: string;
    } | null;
    return published(answer?.id);
  }
  if (post.media.length === 1 && post.media[0]!.contentType.startsWith("video/")) {
    return publishVideo(api, token, page, post.text, post.media[0]!, post.signal);
  }
  const image = onlyImage(post.media);
  const answer = (await graphCall(
    api,
    token,
    "POST",
    `/${page}/photos`,
    photoForm(image, { message: post.text, published: "true" }),
    post.signal,
  )) as {
    post_id?: string;
  } | null;
  return published(answer?.post_id);
}

/** A photo upload: the file in `source`, its alt text, and the other fields given. */
function photoForm(image: MediaFile, fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (image.alt) form.set("alt_text_custom", image.alt);
  form.set("source", new Blob([new Uint8Array(image.bytes)], { type: image.contentType }), image.filename);
  return form;
}

/**
 * Several photos in one post, as the Pages API documents it: each photo uploaded with published=false
 * (no post yet: Graph answers its id), then one feed post with the text that attaches them in order
 * (`attached_media[n]={"media_fbid": …}`). Only that last request makes a post, so an attempt cut off
 * among the uploads simply uploads again.
 */
async function publishPhotos(
  api: FacebookApiConfig,
  token: string,
  page: string,
  post: Pick<PublishInput, "text" | "media" | "signal">,
): Promise<PublishedPost> {
  if (post.media.length > FACEBOOK_MAX_PHOTOS) {
    throw new NetworkError(
      "facebook",
      "refused",
      `Facebook: this server attaches at most ${FACEBOOK_MAX_PHOTOS} photos to one post; the post has ${post.media.length}.`,
    );
  }
  const images = post.media.map((file) =>
    checkedImage(file, "several media in one Facebook post must all be photos"),
  );
  const ids: string[] = [];
  for (const image of images) {
    const uploaded = (await graphCall(
      api,
      token,
      "POST",
      `/${page}/photos`,
      photoForm(image, { published: "false" }),
      post.signal,
      // An unpublished photo is no post: one whose answer was lost is simply uploaded again.
      true,
    )) as { id?: unknown } | null;
    if (typeof uploaded?.id !== "string") {
      throw new NetworkError("facebook", "retry", "Facebook answered a photo upload without its id.");
    }
    ids.push(uploaded.id);
  }
  const form = new URLSearchParams({ message: post.text });
  for (const [i, id] of ids.entries()) form.set(`attached_media[${i}]`, JSON.stringify({ media_fbid: id }));
  const answer = (await graphCall(api, token, "POST", `/${page}/feed`, form, post.signal)) as {
    id?: string;
  } | null;
  return published(answer?.id);
}

function published(id: string | undefined): PublishedPost {
  if (typeof id !== "string") {
    throw new NetworkError(
      "facebook",
      "unknown",
      "Facebook answered the post without its id; check the Page.",
    );
  }
  return { id, permalink: facebookPermalink(id) };
}

function onlyImage(media: readonly MediaFile[]): MediaFile {
  return checkedImage(media[0]!, "this server posts one video, or photos, per Facebook post");
}

function checkedImage(image: MediaFile, videoWhy: string): MediaFile {
  const refuse = (why: string) => new NetworkError("facebook", "refused", `Facebook: ${why}`);
  if (image.contentType.startsWith("video/")) throw refuse(`${videoWhy}; the post has a video among them.`);
  if (!IMAGE_TYPES.test(image.contentType)) {
    throw refuse(
      `this server posts photos (JPEG, PNG, GIF, WebP) to Facebook; ${image.contentType} is not one of them.`,
    );
  }
  if (image.bytes.length > FACEBOOK_MAX_IMAGE_BYTES)
    throw refuse("Facebook takes photos up to 10 MB; the post's image is larger.");
  return image;
}
