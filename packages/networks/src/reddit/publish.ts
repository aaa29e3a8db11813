import {
  type AccountSession,
  type MediaFile,
  NetworkError,
  type PublishedPost,
  type PublishInput,
} from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";
import { type RedditApiConfig, redditCall, redditError } from "./api.ts";

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

/**
 * Submits one post (POST /api/submit) to the subreddit chosen at connect: the text's first line as the
 * title; with an image, an image post (the image leased and uploaded first: POST /api/media/asset.json,
 * then the upload form it answers); without, a link post when the rest of the text is one web address,
 * else a self (text) post with the rest as its body.
 */
export async function publishReddit(
  api: RedditApiConfig,
  account: AccountSession,
  post: PublishInput,
): Promise<PublishedPost> {
  const token = String(account.credentials.access_token ?? "");
  const subreddit = String(account.credentials.subreddit ?? "");
  const { title, body } = splitPost(post.text);
  if (title.length === 0) {
    throw new NetworkError(
      "reddit",
      "refused",
      "Reddit: a post needs a title; the post's first line is empty.",
    );
  }
  const form: Record<string, string> = { api_type: "json", sr: subreddit, title, resubmit: "true" };
  if (post.media.length > 0) {
    form.kind = "image";
    form.url = await uploadImage(api, token, onlyImage(post.media), post.signal);
  } else if (ONLY_URL.test(body)) {
    form.kind = "link";
    form.url = body;
  } else {
    form.kind = "self";
    form.text = body;
  }
  const answer = (await redditCall(api, token, "POST", "/api/submit", form, post.signal)) as SubmitAnswer;
  const refused = answer?.json?.errors?.[0];
  if (refused) throw submitRefusal(refused, api.now());
  const data = answer?.json?.data;
  if (data?.id && data.url) return { id: data.id, permalink: data.url };
  // An image post is answered before Reddit has made it: it is read back from the account's newest posts.
  if (form.kind === "image") return findNewest(api, account, title, subreddit, post.signal);
  throw new NetworkError(
    "reddit",
    "unknown",
    "Reddit answered the post without its id; check the subreddit.",
  );
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

function onlyImage(media: readonly MediaFile[]): MediaFile {
  const refuse = (why: string) => new NetworkError("reddit", "refused", `Reddit: ${why}`);
  if (media.length > 1) throw refuse("this server posts one image per Reddit post; the post has more.");
  const image = media[0]!;
  if (!IMAGE_TYPES.test(image.contentType)) {
    throw refuse(
      `this server posts JPEG, PNG and GIF images to Reddit; ${image.contentType} is not one of them.`,
    );
  }
  if (image.bytes.length > REDDIT_MAX_IMAGE_BYTES)
    throw refuse("Reddit takes images up to 20 MB; the post's image is larger.");
  return image;
}

interface LeaseAnswer {
  args?: { action?: string; fields?: { name: string; value: string }[] };
}

/** Leases an upload slot, sends the image to it, and answers the address a post names it by. */
async function uploadImage(
  api: RedditApiConfig,
  token: string,
  image: MediaFile,
  signal: AbortSignal,
): Promise<string> {
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
  return `${target.href.replace(/\/+$/, "")}/${key}`;
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
