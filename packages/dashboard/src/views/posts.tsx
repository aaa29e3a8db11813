import { useEffect, useRef, useState } from "preact/hooks";
import type { Page, Post, PostStatus } from "../api/types.ts";
import { useApp } from "../context.ts";
import { describeChanges } from "../lib/changes.ts";
import { currentCursor, firstPage } from "../lib/cursor-stack.ts";
import { networkName } from "../lib/network-rules.ts";
import { hrefFor } from "../lib/route.ts";
import { timeFromId } from "../lib/time.ts";
import { usePoll } from "../poll.ts";
import { Badge, Empty, ErrorMessage, Pager, Time } from "./parts.tsx";

/** Rows per page: one request, and a table short enough to read; the API allows up to 100. */
export const POSTS_PER_PAGE = 50;
const STATUSES: PostStatus[] = ["draft", "scheduled", "publishing", "published"];

function captionPreview(post: Post): string {
  const text = post.caption.trim();
  if (text === "") return post.has_media ? "(media only)" : "(empty)";
  return text.length > 90 ? `${text.slice(0, 89)}…` : text;
}

export function PostsView() {
  const { api, rules, clock, announce } = useApp();
  const [statuses, setStatuses] = useState<PostStatus[]>([]);
  const [pages, setPages] = useState(firstPage);
  const cursor = currentCursor(pages);
  const posts = usePoll<Page<Post>>(
    () =>
      api.list<Post>("/posts", {
        limit: POSTS_PER_PAGE,
        status: statuses.length > 0 ? statuses.join(",") : undefined,
        cursor,
      }),
    `${statuses.join(",")}|${cursor ?? ""}`,
    clock,
  );

  const previous = useRef<{ key: string; data: Post[] } | null>(null);
  useEffect(() => {
    if (!posts.data) return;
    const key = `${statuses.join(",")}|${cursor ?? ""}`;
    const before = previous.current?.key === key ? previous.current.data : null;
    const message = describeChanges(before, posts.data.data);
    if (message) announce(message);
    previous.current = { key, data: posts.data.data };
  }, [posts.data]);

  function toggle(status: PostStatus, on: boolean) {
    setStatuses((old) =>
      on ? STATUSES.filter((s) => s === status || old.includes(s)) : old.filter((s) => s !== status),
    );
    setPages(firstPage);
  }

  const rows = posts.data?.data ?? [];
  return (
    <section aria-labelledby="posts-title">
      <h1 id="posts-title" tabIndex={-1}>
        Posts
      </h1>
      <fieldset class="filters">
        <legend>Show posts that are</legend>
        {STATUSES.map((status) => (
          <label key={status} class="check">
            <input
              type="checkbox"
              checked={statuses.includes(status)}
              onChange={(event) => toggle(status, event.currentTarget.checked)}
            />
            {status}
          </label>
        ))}
        <span class="help">{statuses.length === 0 ? "(none ticked: all)" : ""}</span>
      </fieldset>
      <ErrorMessage error={posts.error} />
      {posts.loading ? (
        <p aria-busy="true">Loading posts…</p>
      ) : rows.length === 0 ? (
        <Empty>
          No posts yet. Create one with POST /api/v1/posts; it appears here with the next refresh.
        </Empty>
      ) : (
        <div class="table-wrap">
          <table class="posts stacks">
            <caption class="visually-hidden">Posts, most recent first</caption>
            <thead>
              <tr>
                <th scope="col">Post</th>
                <th scope="col">Status</th>
                <th scope="col">Networks</th>
                <th scope="col">Created (UTC)</th>
                <th scope="col">Due (UTC)</th>
                <th scope="col">Published (UTC)</th>
                <th scope="col" class="num">
                  Reach
                </th>
                <th scope="col" class="num">
                  Engagement
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((post) => (
                <tr key={post.id} data-post-id={post.id}>
                  <th scope="row">
                    <a href={hrefFor({ view: "post", id: post.id })}>{captionPreview(post)}</a>
                    <span class="id">{post.id}</span>
                  </th>
                  <td data-label="Status">
                    <Badge value={post.status} />
                  </td>
                  <td data-label="Networks">
                    {post.platforms.map((id) => networkName(rules, id)).join(", ")}
                  </td>
                  <td data-label="Created (UTC)">
                    <Time ms={timeFromId(post.id)} short />
                  </td>
                  <td data-label="Due (UTC)">
                    <Time ms={post.scheduled_at} short />
                  </td>
                  <td data-label="Published (UTC)">
                    <Time ms={post.published_at} short />
                  </td>
                  <td class="num" data-label="Reach">
                    {post.reach.toLocaleString("en")}
                  </td>
                  <td class="num" data-label="Engagement">
                    {post.engagement_rate.toFixed(2)}%
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Pages of posts" pages={pages} next={posts.data?.next} onPages={setPages} />
    </section>
  );
}
