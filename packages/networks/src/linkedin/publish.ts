import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
  publishThread,
  type SentPart,
} from "@socialpub/core";
import { type LinkedInApiConfig, linkedinCall } from "./api.ts";
import { findLinkedInPost } from "./find-published.ts";

/** LinkedIn takes images up to 36 million pixels; this server sends files up to 10 MB. */
export const LINKEDIN_MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES = /^image\/(jpeg|png|gif)$/;
/** Characters LinkedIn's "little text" format reserves: unescaped, they cut or change the post. */
const RESERVED = /[\\|{}@[\]()<>#*_~]/g;

export const linkedinPermalink = (urn: string) => `https://www.linkedin.com/feed/update/${urn}/`;

/** The text as LinkedIn's commentary field takes it: every reserved character escaped. */
export const escapeLittleText = (text: string) => text.replace(RESERVED, "\\$&");

/** The visibilities a member's post may have (options.linkedin.visibility); PUBLIC by default. */
const VISIBILITIES = new Set(["PUBLIC", "CONNECTIONS"]);
/** A multi-image post takes 2 to 20 images (LinkedIn's MultiImage API). */
export const LINKEDIN_MAX_IMAGES = 20;

/**
 * Creates one post (POST /rest/posts) as the member, in the main feed: the text as its commentary and,
 * with images, each uploaded first (initializeUpload, then PUT of the bytes to the upload URL LinkedIn
 * answers) and named by its URN with its alt text: one image as `content.media`, two to twenty as
 * `content.multiImage`. `options.visibility` (PUBLIC or CONNECTIONS) says who sees it. The new post's
 * URN comes in x-restli-id. A first comment is added by the member through the Comments API
 * (POST /rest/socialActions/{post}/comments) once the post exists, through publishThread, which keeps
 * its outcome in the step so a retry never comments twice.
 */
export async function publishLinkedIn(
  api: LinkedInApiConfig,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const author = String(account.credentials.author ?? "");
  const visibility = visibilityOf(post.options);
  const images = checkedImages(post.media);
  const create = async (): Promise<PublishedPost> => {
    const uploaded: { urn: string; alt: string | undefined }[] = [];
    for (const image of images) uploaded.push(await uploadImage(api, token, author, image, post.signal));
    const body = {
      author,
      commentary: escapeLittleText(post.text),
      visibility,
      distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: "PUBLISHED",
      isReshareDisabledByAuthor: false,
      ...(uploaded.length > 0 && { content: contentOf(uploaded) }),
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
  };
  if (!post.firstComment) return create();
  return publishThread("linkedin", post, {
    async send(part) {
      // Saved before the post goes out: a later attempt that finds this step knows since when to look.
      await part.saveStep({ [SENT_SINCE]: api.now() });
      return create();
    },
    async find(part) {
      // No time saved: this attempt stopped before the post was sent.
      const since = part.step?.[SENT_SINCE];
      if (typeof since !== "number") return null;
      const lost = { key: post.key, text: post.text, since: since - CLOCK_SLACK_MS };
      return findLinkedInPost(api, account, lost, post.signal);
    },
    comment: (text, root) => commentOn(api, token, author, root.id, text, post.signal),
  });
}

/** The step's key for when the post was sent (Unix ms), so a lost answer is looked for from then. */
const SENT_SINCE = "linkedin_sent_at";
/** How far LinkedIn's clock may be behind ours. */
const CLOCK_SLACK_MS = 60_000;

function visibilityOf(options: PublishInput["options"]): string {
  const visibility = options?.visibility;
  if (visibility === undefined) return "PUBLIC";
  if (typeof visibility === "string" && VISIBILITIES.has(visibility)) return visibility;
  throw new NetworkError(
    "linkedin",
    "refused",
    "LinkedIn: options.linkedin.visibility is PUBLIC or CONNECTIONS.",
  );
}

function contentOf(images: readonly { urn: string; alt: string | undefined }[]) {
  const named = images.map((image) => ({ id: image.urn, ...(image.alt && { altText: image.alt }) }));
  return named.length === 1 ? { media: named[0] } : { multiImage: { images: named } };
}

/**
 * The member's comment on the post (the Comments API takes plain text, not the little text format);
 * answers its URN and a link that opens the post at it.
 */
async function commentOn(
  api: LinkedInApiConfig,
  token: string,
  actor: string,
  postUrn: string,
  text: string,
  signal: AbortSignal,
): Promise<SentPart> {
  const { body, headers } = await linkedinCall(
    api,
    token,
    "POST",
    `/rest/socialActions/${encodeURIComponent(postUrn)}/comments`,
    { json: { actor, object: postUrn, message: { text } } },
    signal,
  );
  const answered = (body as { commentUrn?: unknown } | null)?.commentUrn;
  const urn = typeof answered === "string" ? answered : headers.get("x-restli-id");
  if (!urn) throw new NetworkError("linkedin", "unknown", "LinkedIn answered the comment without its id.");
  return { id: urn, permalink: linkedinCommentPermalink(postUrn, urn) };
}

/** A link that opens the post at one of its comments, as LinkedIn's own notifications link it. */
export const linkedinCommentPermalink = (postUrn: string, commentUrn: string) =>
  `${linkedinPermalink(postUrn)}?commentUrn=${encodeURIComponent(commentUrn)}`;

function checkedImages(media: readonly MediaFile[]): readonly MediaFile[] {
  const refuse = (why: string) => new NetworkError("linkedin", "refused", `LinkedIn: ${why}`);
  if (media.length > LINKEDIN_MAX_IMAGES)
    throw refuse(`a post takes at most ${LINKEDIN_MAX_IMAGES} images; this one has ${media.length}.`);
  for (const image of media) {
    if (!IMAGE_TYPES.test(image.contentType)) {
      throw refuse(
        `this server posts JPEG, PNG and GIF images to LinkedIn; ${image.contentType} is not one of them.`,
      );
    }
    if (image.bytes.length > LINKEDIN_MAX_IMAGE_BYTES)
      throw refuse("this server sends LinkedIn images up to 10 MB; one of the post's images is larger.");
  }
  return media;
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
