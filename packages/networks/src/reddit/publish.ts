import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
  publishThread,
  type SentPart,
} from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";
import { type RedditApiConfig, redditCall, redditError } from "./api.ts";
import { findRedditSubmission } from "./find-published.ts";

/** Reddit takes images up to 20 MB. */
export const REDDIT_MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const TITLE_LIMIT = 300;
const IMAGE_TYPES = /^image\/(jpeg|png|gif)$/;
/** A body that is one web address and nothing else makes a link post. */
const ONLY_URL = /^https?:\/\/\S+$/;

export const redditPermalink = (permalink: string) => `https://www.reddit.com${permalink}`;

/** The title (the text's first line, cut to Reddit's 300 characters) and the body (the rest). */
export function splitPost(text: string): { title: string; body: string } {
  const newline = text.indexOf("\n");
  const first = (newline < 0 ? text : text.slice(0, newline)).trim();
  return {
    title: [...first].slice(0, TITLE_LIMIT).join(""),
    body: newline < 0 ? "" : text.slice(newline + 1).trim(),
  };
}

interface SubmitAnswer {
  json?: {
    errors?: [string, string, string?][];
    data?: { id?: string; name?: string; url?: string; user_submitted_page?: string };
  };
}

interface Listing {
  data?: { children?: { data?: { id?: string; title?: string; permalink?: string; subreddit?: string } }[] };
}

/** The most images in a gallery this server sends (Reddit's galleries take 20). */
export const REDDIT_MAX_GALLERY_IMAGES = 20;

/** What a submission is made of, once the options are applied. */
interface Submission {
  title: string;
  body: string;
  subreddit: string;
  /** flair_id, nsfw, spoiler as the submit takes them. */
  extras: { flair_id?: string; nsfw?: boolean; spoiler?: boolean };
}

/**
 * Submits one post to the subreddit chosen at connect (or `options.subreddit`): the text's first line
 * as the title (or `options.title`, the whole text then being the body); with one image, an image
 * post (the image leased and uploaded first: POST /api/media/asset.json, then the upload form it
 * answers); with several, a gallery (each uploaded so, then POST /api/submit_gallery_post.json naming
 * their asset ids in order); without, a link post when the rest of the text is one web address, else a
 * self (text) post with the rest as its body. `flair_id`, `nsfw` and `spoiler` go with any kind. A
 * first comment is the account's reply to the new post (POST /api/comment), through publishThread, which
 * keeps its outcome in the step so a retry never comments twice.
 */
export async function publishReddit(
  api: RedditApiConfig,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const submission = submissionOf(post, String(account.credentials.subreddit ?? ""));
  const images = checkedImages(post.media);
  const submit = () => submitPost(api, account, submission, images, post.signal);
  // A post the service would look for by its text alone (findPublished) goes out as it always has;
  // one whose title or place came from its options, a gallery or one with a first comment keeps its
  // progress in the step, so a lost answer is looked for as it was sent and the comment made once.
  const plain =
    !post.firstComment &&
    images.length <= 1 &&
    post.options?.title === undefined &&
    post.options?.subreddit === undefined;
  if (plain) return submit();
  return publishThread("reddit", post, {
    async send(part) {
      await part.saveStep({ [SENT_SINCE]: api.now() });
      return submit();
    },
    async find(part) {
      const since = part.step?.[SENT_SINCE];
      // No time saved: that attempt stopped before the post was sent.
      if (typeof since !== "number") return null;
      const { title, body, subreddit } = submission;
      const sent = { title, body, subreddit, since: since - CLOCK_SLACK_MS };
      return findRedditSubmission(api, account, sent, post.signal);
    },
    comment: (text, root) => commentOn(api, token, root.id, text, post.signal),
  });
}

/** The step's key for when the post was sent (Unix ms), so a lost answer is looked for from then. */
const SENT_SINCE = "reddit_sent_at";
/** How far Reddit's clock may be behind ours. */
const CLOCK_SLACK_MS = 60_000;

function submissionOf(post: PublishInput, connected: string): Submission {
  const options = post.options ?? {};
  const str = (value: unknown) => (typeof value === "string" && value.length > 0 ? value : undefined);
  const chosenTitle = str(options.title);
  const { title, body } = chosenTitle
    ? { title: [...chosenTitle].slice(0, TITLE_LIMIT).join(""), body: post.text.trim() }
    : splitPost(post.text);
  if (title.length === 0) {
    throw new NetworkError(
      "reddit",
      "refused",
      "Reddit: a post needs a title; the post's first line is empty (or set options.reddit.title).",
    );
  }
  const subreddit = str(options.subreddit)?.replace(/^r\//, "") ?? connected;
  const extras: Submission["extras"] = {};
  const flair = str(options.flair_id);
  if (flair) extras.flair_id = flair;
  if (options.nsfw === true) extras.nsfw = true;
  if (options.spoiler === true) extras.spoiler = true;
  return { title, body, subreddit, extras };
}

async function submitPost(
  api: RedditApiConfig,
  account: AccountSession,
  { title, body, subreddit, extras }: Submission,
  images: readonly MediaFile[],
  signal: AbortSignal,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  if (images.length > 1) return submitGallery(api, token, { title, subreddit, extras }, images, signal);
  const form: Record<string, string> = { api_type: "json", sr: subreddit, title, resubmit: "true" };
  if (extras.flair_id) form.flair_id = extras.flair_id;
  if (extras.nsfw) form.nsfw = "true";
  if (extras.spoiler) form.spoiler = "true";
  if (images.length === 1) {
    form.kind = "image";
    form.url = (await uploadImage(api, token, images[0]!, signal)).url;
  } else if (ONLY_URL.test(body)) {
    form.kind = "link";
    form.url = body;
  } else {
    form.kind = "self";
    form.text = body;
  }
  const answer = (await redditCall(api, token, "POST", "/api/submit", form, signal)) as SubmitAnswer;
  const refused = answer?.json?.errors?.[0];
  if (refused) throw submitRefusal(refused, api.now());
  const data = answer?.json?.data;
  if (data?.id && data.url) return { id: data.id, permalink: data.url };
  // An image post is answered before Reddit has made it: it is read back from the account's newest posts.
  if (form.kind === "image") return findNewest(api, account, title, subreddit, signal);
  throw new NetworkError(
    "reddit",
    "unknown",
    "Reddit answered the post without its id; check the subreddit.",
  );
}

/**
 * A gallery: each image uploaded (its lease's asset id names it), then one submit of them all, in
 * order. Reddit answers with the new post's URL, its id inside it.
 */
async function submitGallery(
  api: RedditApiConfig,
  token: string,
  { title, subreddit, extras }: Omit<Submission, "body">,
  images: readonly MediaFile[],
  signal: AbortSignal,
): Promise<PublishedPost> {
  const items: { media_id: string; caption: string; outbound_url: string }[] = [];
  for (const image of images) {
    const { assetId } = await uploadImage(api, token, image, signal);
    if (!assetId)
      throw new NetworkError("reddit", "retry", "Reddit answered the image lease without its asset id.");
    items.push({ media_id: assetId, caption: "", outbound_url: "" });
  }
  const answer = (await redditCall(
    api,
    token,
    "POST",
    "/api/submit_gallery_post.json",
    {
      json: {
        api_type: "json",
        sr: subreddit,
        title,
        items,
        nsfw: extras.nsfw ?? false,
        spoiler: extras.spoiler ?? false,
        sendreplies: true,
        show_error_list: true,
        ...(extras.flair_id && { flair_id: extras.flair_id }),
      },
    },
    signal,
  )) as SubmitAnswer;
  const refused = answer?.json?.errors?.[0];
  if (refused) throw submitRefusal(refused, api.now());
  const url = answer?.json?.data?.url;
  const id = url ? /\/comments\/([a-z0-9]+)/i.exec(url)?.[1] : undefined;
  if (!url || !id)
    throw new NetworkError(
      "reddit",
      "unknown",
      "Reddit answered the gallery without its address; check the subreddit.",
    );
  return { id, permalink: url };
}

interface CommentAnswer {
  json?: {
    errors?: [string, string, string?][];
    data?: { things?: { data?: { id?: string; name?: string; permalink?: string } }[] };
  };
}

/** The account's reply to its new post (POST /api/comment on t3_<id>). */
async function commentOn(
  api: RedditApiConfig,
  token: string,
  postId: string,
  text: string,
  signal: AbortSignal,
): Promise<SentPart> {
  const form = { api_type: "json", thing_id: `t3_${postId}`, text };
  const answer = (await redditCall(api, token, "POST", "/api/comment", form, signal)) as CommentAnswer;
  const refused = answer?.json?.errors?.[0];
  if (refused)
    throw new NetworkError(
      "reddit",
      "refused",
      `Reddit refused the comment (Reddit said: ${refused[0]}: ${refused[1]}).`,
    );
  const made = answer?.json?.data?.things?.[0]?.data;
  if (!made?.id) throw new NetworkError("reddit", "unknown", "Reddit answered the comment without its id.");
  return {
    id: made.id,
    permalink: made.permalink ? redditPermalink(made.permalink) : "",
  };
}

/** Reddit's refusals inside a 200: RATELIMIT waits, the rest is the post being wrong there. */
function submitRefusal([code, message]: [string, string, string?], now: number): NetworkError {
  const said = `(Reddit said: ${code}: ${message})`;
  if (code === "RATELIMIT") {
    const minutes = /(\d+) minute/.exec(message);
    const seconds = /(\d+) second/.exec(message);
    const retryAfterMs = minutes
      ? Number(minutes[1]) * 60_000
      : seconds
        ? Number(seconds[1]) * 1000
        : 600_000;
    return new NetworkError(
      "reddit",
      "retry",
      `Reddit asks this account to wait before posting again, until ${new Date(now + retryAfterMs).toISOString()} ${said}.`,
      { retryAfterMs },
    );
  }
  return new NetworkError("reddit", "refused", `Reddit refused the post ${said}.`);
}

function checkedImages(media: readonly MediaFile[]): readonly MediaFile[] {
  const refuse = (why: string) => new NetworkError("reddit", "refused", `Reddit: ${why}`);
  if (media.length > REDDIT_MAX_GALLERY_IMAGES)
    throw refuse(
      `a gallery takes at most ${REDDIT_MAX_GALLERY_IMAGES} images; the post has ${media.length}.`,
    );
  for (const image of media) {
    if (!IMAGE_TYPES.test(image.contentType)) {
      throw refuse(
        `this server posts JPEG, PNG and GIF images to Reddit; ${image.contentType} is not one of them.`,
      );
    }
    if (image.bytes.length > REDDIT_MAX_IMAGE_BYTES)
      throw refuse("Reddit takes images up to 20 MB; one of the post's images is larger.");
  }
  return media;
}

interface LeaseAnswer {
  args?: { action?: string; fields?: { name: string; value: string }[] };
  asset?: { asset_id?: string };
}

/**
 * Leases an upload slot, sends the image to it, and answers the address an image post names it by and
 * the asset id a gallery names it by.
 */
async function uploadImage(
  api: RedditApiConfig,
  token: string,
  image: MediaFile,
  signal: AbortSignal,
): Promise<{ url: string; assetId: string }> {
  // A lease posts nothing, so one that went unanswered is simply asked again.
  const lease = (await redditCall(
    api,
    token,
    "POST",
    "/api/media/asset.json",
    { filepath: image.filename, mimetype: image.contentType },
    signal,
    true,
  )) as LeaseAnswer;
  const action = lease?.args?.action;
  const fields = lease?.args?.fields ?? [];
  const key = fields.find((f) => f.name === "key")?.value;
  const assetId = lease?.asset?.asset_id ?? "";
  if (!action || !key)
    throw new NetworkError("reddit", "retry", "Reddit answered the image lease without an upload form.");
  // The form's address is protocol-relative (//host): it takes the API's scheme.
  const target = new URL(action, api.apiUrl);
  const upload = new FormData();
  for (const field of fields) upload.set(field.name, field.value);
  upload.set("file", new Blob([new Uint8Array(image.bytes)], { type: image.contentType }), image.filename);
  let response: Response;
  try {
    response = await api.fetch(target, { method: "POST", body: upload, signal });
  } catch (cause) {
    throw new NetworkError(
      "reddit",
      "retry",
      `Reddit's media upload ${describeFetchFailure(cause, signal).reason}`,
      {
        cause,
      },
    );
  }
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw redditError(response.status, null, response.headers, api.now());
  return { url: `${target.href.replace(/\/+$/, "")}/${key}`, assetId };
}

/** The account's newest post in `subreddit` titled `title`: an image post just made. */
async function findNewest(
  api: RedditApiConfig,
  account: AccountSession,
  title: string,
  subreddit: string,
  signal: AbortSignal,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const user = encodeURIComponent(String(account.credentials.username ?? ""));
  const listing = (await redditCall(
    api,
    token,
    "GET",
    `/user/${user}/submitted?sort=new&limit=10`,
    null,
    signal,
    true,
  ).catch(() => null)) as Listing | null;
  const found = listing?.data?.children?.find(
    (c) => c.data?.title === title && c.data.subreddit?.toLowerCase() === subreddit.toLowerCase(),
  )?.data;
  if (!found?.id || !found.permalink) {
    throw new NetworkError(
      "reddit",
      "unknown",
      `Reddit took the image post but it is not among the account's newest posts yet; check r/${subreddit}.`,
    );
  }
  return { id: found.id, permalink: redditPermalink(found.permalink) };
}
