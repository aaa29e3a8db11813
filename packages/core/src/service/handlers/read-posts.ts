import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import type { ListPostsQuery } from "../../contract/requests.ts";
import type { PostContentView } from "../../contract/rich.ts";
import { postMedia } from "../../posting/content.ts";
import { viewMedia } from "../../posting/media-view.ts";
import type { RequestContext } from "../context.ts";
import { badRequest, HttpError } from "../http-error.ts";
import { JSON_CONTENT_TYPE, json, textResponse } from "../responses.ts";
import { toPost, toPostWithTotals, toTarget } from "../serialize.ts";
import { targetMedia } from "../target-media.ts";

const NO_METRICS = { reach: 0, likes: 0, comments: 0, shares: 0 };

const postNotFound = () => new HttpError(404, CONTRACT_MESSAGES.postNotFound);

/**
 * GET /posts/{id}: another user's post answers exactly like an unknown id. Kept with the list pages by
 * the version of the user's posts (list-page-cache.ts), which moves with every change to the post and to
 * its targets' metrics (the answer shows their sums, not the targets); a 404 is not kept.
 */
export async function getPost({ deps, caller, params }: RequestContext): Promise<Response> {
  // Kept under the id, not the path: no list page's key (a path, "/…") can be the same.
  const key = `post:${params.id}`;
  const cached = deps.listPages.get(caller.user.id, key, caller.postsVersion);
  if (cached) return textResponse(200, cached.body, cached.headers);
  const post = await deps.store.getPost(caller.user.id, params.id!);
  if (!post) throw postNotFound();
  const body = JSON.stringify(toPost(post, await deps.store.getTargets(post.id)));
  const headers = { "content-type": JSON_CONTENT_TYPE };
  deps.listPages.set(caller.user.id, key, caller.postsVersion, { body, headers });
  return textResponse(200, body, headers);
}

/** GET /posts/{id}/targets: what each network did with the post. */
export async function getPostTargets({ deps, caller, params }: RequestContext): Promise<Response> {
  const post = await deps.store.getPost(caller.user.id, params.id!);
  if (!post) throw postNotFound();
  const targets = await deps.store.getTargets(post.id);
  const data = await Promise.all(targets.map(async (t) => toTarget(t, await targetMedia(deps, post, t))));
  return json(200, { data });
}

/**
 * GET /posts/{id}/content (extension): the whole content as sent — caption, captions, every media
 * item with its type and alt text, the thread's parts, the first comment, the poll, the options and
 * `split` — which the post resource (as the contract states it) does not show.
 */
export async function getPostContent({ deps, caller, params }: RequestContext): Promise<Response> {
  const post = await deps.store.getPost(caller.user.id, params.id!);
  if (!post) throw postNotFound();
  const getMedia = (userId: string, id: string) => deps.store.getMedia(userId, id);
  const rich = post.rich;
  const thread: PostContentView["thread"] = [];
  for (const part of rich?.thread ?? []) {
    thread.push({
      caption: part.caption,
      captions: part.captions ?? {},
      media: await viewMedia(getMedia, post.user_id, part.media ?? []),
    });
  }
  const content: PostContentView = {
    caption: post.caption,
    captions: post.captions ?? {},
    media: await viewMedia(getMedia, post.user_id, postMedia(post)),
    thread,
    first_comment: rich?.first_comment ?? null,
    poll: rich?.poll ?? null,
    options: rich?.options ?? {},
    split: rich?.split ?? "shorten",
  };
  return json(200, content);
}

/**
 * GET /posts: most recent first. The query schema has already parsed `status` (the known values of a
 * comma list; none known: all) and `limit` (default 20, clamped to 100); the next page is linked
 * with `Link: <…>; rel="next"`.
 */
export async function listPosts({
  deps,
  caller,
  query,
  url,
}: RequestContext<unknown, ListPostsQuery>): Promise<Response> {
  // The same URL gives the same page while the user's posts are unchanged (list-page-cache.ts).
  const pathAndQuery = `${url.pathname}${url.search}`;
  const cached = deps.listPages.get(caller.user.id, pathAndQuery, caller.postsVersion);
  if (cached) return textResponse(200, cached.body, cached.headers);
  const { status: statuses, limit } = query;
  const beforeId = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const page = await deps.store.listPosts(caller.user.id, { statuses, limit: limit + 1, beforeId });
  const posts = page.slice(0, limit);
  const totals = await deps.store.sumTargetMetrics(posts.map((post) => post.id));
  const data = posts.map((post) => toPostWithTotals(post, totals.get(post.id) ?? NO_METRICS));
  const headers: Record<string, string> = { "content-type": JSON_CONTENT_TYPE };
  const last = posts.at(-1);
  if (page.length > limit && last) {
    const next = new URL(url);
    next.searchParams.set("cursor", encodeCursor(last.id));
    headers.link = `<${next.pathname}${next.search}>; rel="next"`;
  }
  const body = JSON.stringify({ data });
  deps.listPages.set(caller.user.id, pathAndQuery, caller.postsVersion, { body, headers });
  return textResponse(200, body, headers);
}

const CURSOR_PREFIX = "before:";

export function encodeCursor(id: string): string {
  return Buffer.from(`${CURSOR_PREFIX}${id}`).toString("base64url");
}

export function decodeCursor(cursor: string): string {
  const decoded = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, "base64url").toString() : "";
  if (!decoded.startsWith(CURSOR_PREFIX) || decoded.length === CURSOR_PREFIX.length) {
    throw badRequest("cursor is not valid; follow the URL in the Link header of the previous page.");
  }
  return decoded.slice(CURSOR_PREFIX.length);
}
