import { useState } from "preact/hooks";
import { ApiError, describeError } from "../api/client.ts";
import type { NetworkId, Post, Target } from "../api/types.ts";
import { useApp } from "../context.ts";
import { type NetworkRules, networkName } from "../lib/network-rules.ts";
import { hasOwnText } from "../lib/own-text.ts";
import { draftOf, type EditDraft } from "../lib/post-edit.ts";
import { hrefFor } from "../lib/route.ts";
import { lengthOf } from "../lib/text-length.ts";
import { timeFromId } from "../lib/time.ts";
import { usePoll } from "../poll.ts";
import { EditPost } from "./edit-post.tsx";
import { Badge, ErrorMessage, Time } from "./parts.tsx";
import { TargetCard } from "./target-card.tsx";

/** Each network's own text (its override in captions), read back from the targets. */
function ownTexts(post: Post, targets: Target[], rules: NetworkRules): Partial<Record<NetworkId, string>> {
  const texts: Partial<Record<NetworkId, string>> = {};
  for (const target of targets) {
    const rule = rules.get(target.platform);
    if (rule && hasOwnText(post.caption, target.text, rule, post.has_media))
      texts[target.platform] = target.text;
  }
  return texts;
}

export function PostDetail({ id }: { id: string }) {
  const { api, rules, clock, announce } = useApp();
  const [actionError, setActionError] = useState<string | null>(null);
  /** The form as it was when Edit was pressed; null while not editing. Refreshes do not reset it. */
  const [editing, setEditing] = useState<EditDraft | null>(null);
  const path = `/posts/${encodeURIComponent(id)}`;
  const detail = usePoll(
    async () => {
      const [post, targets] = await Promise.all([
        api.get<Post>(path),
        api.get<{ data: Target[] }>(`${path}/targets`),
      ]);
      return { post, targets: targets.data };
    },
    id,
    clock,
  );

  async function act(method: "POST" | "DELETE", suffix: string, done: string) {
    try {
      await api.send(method, `${path}${suffix}`);
      setActionError(null);
      announce(done);
      if (method === "DELETE") location.hash = hrefFor({ view: "posts" });
      else await detail.refresh();
    } catch (failure) {
      setActionError(describeError(failure));
    }
  }

  const back = (
    <p>
      <a href={hrefFor({ view: "posts" })}>← All posts</a>
    </p>
  );
  if (detail.error instanceof ApiError && detail.error.status === 404 && !detail.data) {
    return (
      <section>
        {back}
        <h1 tabIndex={-1}>Post not found</h1>
        <p>No post {id} belongs to this key's user; it may have been deleted.</p>
      </section>
    );
  }
  if (!detail.data) {
    return (
      <section>
        {back}
        <h1 tabIndex={-1}>Post {id}</h1>
        <ErrorMessage error={detail.error} />
        {!detail.error && <p aria-busy="true">Loading…</p>}
      </section>
    );
  }
  const { post, targets } = detail.data;
  return (
    <section aria-labelledby="post-title">
      {back}
      <h1 id="post-title" tabIndex={-1}>
        Post <span class="id">{post.id}</span> <Badge value={post.status} />
      </h1>
      <ErrorMessage error={detail.error} />
      <dl class="facts">
        <div>
          <dt>Networks</dt>
          <dd>{post.platforms.map((p) => networkName(rules, p)).join(", ")}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <Time ms={timeFromId(post.id)} />
          </dd>
        </div>
        <div>
          <dt>Due</dt>
          <dd>
            <Time ms={post.scheduled_at} />
          </dd>
        </div>
        <div>
          <dt>Published</dt>
          <dd>
            <Time ms={post.published_at} />
          </dd>
        </div>
        <div>
          <dt>Reach</dt>
          <dd>{post.reach.toLocaleString("en")}</dd>
        </div>
        <div>
          <dt>Engagement rate</dt>
          <dd>{post.engagement_rate.toFixed(2)}%</dd>
        </div>
        <div>
          <dt>Media</dt>
          <dd>{post.has_media ? "attached" : "none"}</dd>
        </div>
      </dl>
      <h2 class="sub">
        Caption as sent ({lengthOf(post.caption, "characters").toLocaleString("en")} characters)
      </h2>
      <blockquote class="caption">{post.caption || <span class="muted">(no caption)</span>}</blockquote>
      <div class="actions">
        {(post.status === "draft" || post.status === "scheduled") && editing === null && (
          <button
            type="button"
            onClick={() => {
              setActionError(null);
              setEditing(draftOf(post, ownTexts(post, targets, rules)));
            }}
          >
            {post.status === "scheduled" ? "Edit or reschedule" : "Edit"}
          </button>
        )}
        {post.status === "draft" && (
          <button type="button" onClick={() => act("POST", "/publish", `Post ${post.id} sent to publish.`)}>
            Publish now
          </button>
        )}
        <button
          type="button"
          class="danger"
          onClick={() => {
            const what =
              post.status === "published"
                ? "Remove this post's record (it stays on the networks)?"
                : "Delete this post?";
            if (confirm(what)) void act("DELETE", "", `Post ${post.id} deleted.`);
          }}
        >
          Delete
        </button>
      </div>
      {actionError && (
        <p class="error" role="alert">
          {actionError}
        </p>
      )}
      {editing && (
        <EditPost
          post={post}
          initial={editing}
          onClose={() => setEditing(null)}
          onSaved={async (message) => {
            setEditing(null);
            announce(message);
            await detail.refresh();
          }}
          onMovedOn={async (message) => {
            setEditing(null);
            setActionError(message);
            await detail.refresh();
          }}
        />
      )}
      <h2 class="sub">On each network</h2>
      <div class="cards">
        {targets.map((target) => {
          const rule = rules.get(target.platform);
          return rule ? (
            <TargetCard
              key={target.platform}
              post={post}
              target={target}
              rule={rule}
              onChange={detail.refresh}
            />
          ) : null;
        })}
      </div>
    </section>
  );
}
