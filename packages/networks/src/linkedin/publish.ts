import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
} from "@socialpub/core";
import { type LinkedInApiConfig, linkedinCall } from "./api.ts";

/** LinkedIn takes images up to 36 million pixels; this server sends files up to 10 MB. */
export const LINKEDIN_MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES = /^image\/(jpeg|png|gif)$/;
/** Characters LinkedIn's "little text" format reserves: unescaped, they cut or change the post. */
const RESERVED = /[\\|{}@[\]()<>#*_~]/g;

export const linkedinPermalink = (urn: string) => `https://www.linkedin.com/feed/update/${urn}/`;

/** The text as LinkedIn's commentary field takes it: every reserved character escaped. */
export const escapeLittleText = (text: string) => text.replace(RESERVED, "\\$&");

/**
 * Creates one post (POST /rest/posts) as the member, public, in the main feed: the text as its
 * commentary and, with an image, the image uploaded first (initializeUpload, then PUT of the bytes to
 * the upload URL LinkedIn answers) and named by its URN. The new post's URN comes in x-restli-id.
 */
export async function publishLinkedIn(
  api: LinkedInApiConfig,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const author = String(account.credentials.author ?? "");
  const image =
    post.media.length > 0 ? await uploadImage(api, token, author, onlyImage(post.media), post.signal) : null;
  const body = {
    author,
    commentary: escapeLittleText(post.text),
    visibility: "PUBLIC",
    distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
    lifecycleState: "PUBLISHED",
    isReshareDisabledByAuthor: false,
    ...(image && { content: { media: { id: image.urn, ...(image.alt && { altText: image.alt }) } } }),
  };
  const { headers } = await linkedinCall(api, token, "POST", "/rest/posts", { json: body }, post.signal);
  const urn = headers.get("x-restli-id");
  if (!urn)
    throw new NetworkError(
      "linkedin",
      "unknown",
      "LinkedIn answered the post without its id; check the feed.",
    );
  return { id: urn, permalink: linkedinPermalink(urn) };
}

function onlyImage(media: readonly MediaFile[]): MediaFile {
  const refuse = (why: string) => new NetworkError("linkedin", "refused", `LinkedIn: ${why}`);
  if (media.length > 1) throw refuse("this server posts one image per LinkedIn post; the post has more.");
  const image = media[0]!;
  if (!IMAGE_TYPES.test(image.contentType)) {
    throw refuse(
      `this server posts JPEG, PNG and GIF images to LinkedIn; ${image.contentType} is not one of them.`,
    );
  }
  if (image.bytes.length > LINKEDIN_MAX_IMAGE_BYTES)
    throw refuse("this server sends LinkedIn images up to 10 MB; the post's image is larger.");
  return image;
}

async function uploadImage(
  api: LinkedInApiConfig,
  token: string,
  owner: string,
  image: MediaFile,
  signal: AbortSignal,
): Promise<{ urn: string; alt: string | undefined }> {
  // Neither step posts anything: one that went unanswered is simply made again.
  const { body } = await linkedinCall(
    api,
    token,
    "POST",
    "/rest/images?action=initializeUpload",
    { json: { initializeUploadRequest: { owner } } },
    signal,
    true,
  );
  const value = (body as { value?: { uploadUrl?: string; image?: string } } | null)?.value;
  if (!value?.uploadUrl || !value.image) {
    throw new NetworkError("linkedin", "retry", "LinkedIn answered the image upload without its upload URL.");
  }
  await linkedinCall(
    api,
    token,
    "PUT",
    value.uploadUrl,
    { bytes: image.bytes, type: image.contentType },
    signal,
    true,
  );
  return { urn: value.image, alt: image.alt };
}
