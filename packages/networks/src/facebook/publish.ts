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

/**
 * Publishes to the Page chosen at connect with its Page token: text as a feed post (POST
 * /{page-id}/feed), a photo post with the text as its caption (POST /{page-id}/photos, the image
 * uploaded in the same request), or a video with the text as its description (video.ts).
 */
export async function publishFacebook(
  api: FacebookApiConfig,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const page = encodeURIComponent(String(account.credentials.page_id ?? ""));
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
  const form = new FormData();
  form.set("message", post.text);
  form.set("published", "true");
  if (image.alt) form.set("alt_text_custom", image.alt);
  form.set("source", new Blob([new Uint8Array(image.bytes)], { type: image.contentType }), image.filename);
  const answer = (await graphCall(api, token, "POST", `/${page}/photos`, form, post.signal)) as {
    post_id?: string;
  } | null;
  return published(answer?.post_id);
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
  const refuse = (why: string) => new NetworkError("facebook", "refused", `Facebook: ${why}`);
  if (media.length > 1) {
    throw refuse("this server posts one photo or one video per Facebook post; the post has more media.");
  }
  const image = media[0]!;
  if (!IMAGE_TYPES.test(image.contentType)) {
    throw refuse(
      `this server posts photos (JPEG, PNG, GIF, WebP) to Facebook; ${image.contentType} is not one of them.`,
    );
  }
  if (image.bytes.length > FACEBOOK_MAX_IMAGE_BYTES)
    throw refuse("Facebook takes photos up to 10 MB; the post's image is larger.");
  return image;
}
