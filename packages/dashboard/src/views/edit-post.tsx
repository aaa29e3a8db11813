import { useEffect, useState } from "preact/hooks";
import { ApiError, describeError } from "../api/client.ts";
import type { Account, NetworkId, Post } from "../api/types.ts";
import { useApp } from "../context.ts";
import { type EditDraft, editBody } from "../lib/post-edit.ts";
import { lengthOf, unitName } from "../lib/text-length.ts";

/** A 409 that says the post moved on (published, publishing), not that a same-key request still runs. */
function postMovedOn(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && !/Idempotency-Key/.test(error.message);
}

/**
 * PATCH /posts/{id}: the caption, each network's own text, the networks, the media and the due time of
 * a draft or a scheduled post. Only what changed is sent. The same edit sent again after no answer
 * reuses its Idempotency-Key (the client keeps it), so it cannot apply twice.
 */
export function EditPost(props: {
  post: Post;
  initial: EditDraft;
  onClose(): void;
  onSaved(message: string): Promise<void>;
  onMovedOn(message: string): Promise<void>;
}) {
  const { api, rules } = useApp();
  const { post, initial } = props;
  const [draft, setDraft] = useState<EditDraft>(initial);
  const [connected, setConnected] = useState<NetworkId[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editable = post.status === "draft" || post.status === "scheduled";

  // The networks to offer: those with a connected account, and those the post already has.
  useEffect(() => {
    api
      .get<{ data: Account[] }>("/accounts")
      .then((accounts) => setConnected(accounts.data.map((account) => account.platform)))
      .catch((failure) => setError(describeError(failure)));
  }, [api]);
  const offered = [...rules.values()].filter(
    (rule) => initial.platforms.includes(rule.id) || (connected ?? []).includes(rule.id),
  );

  const set = (change: Partial<EditDraft>) => setDraft((old) => ({ ...old, ...change }));
  const toggle = (id: NetworkId, on: boolean) =>
    set({
      platforms: on
        ? offered.map((rule) => rule.id).filter((p) => p === id || draft.platforms.includes(p))
        : draft.platforms.filter((p) => p !== id),
    });

  async function submit(event: Event) {
    event.preventDefault();
    const body = editBody(initial, draft);
    if (body === null) {
      setError("Nothing changed: edit a field, or cancel.");
      return;
    }
    setBusy(true);
    try {
      const saved = await api.send<Post>("PATCH", `/posts/${encodeURIComponent(post.id)}`, body);
      setError(null);
      const when =
        saved.status === "scheduled" && saved.scheduled_at !== null
          ? `, due ${new Date(saved.scheduled_at).toISOString().slice(0, 16).replace("T", " ")} UTC`
          : saved.status === "draft"
            ? ", a draft"
            : "";
      await props.onSaved(`Post ${post.id} saved${when}.`);
    } catch (failure) {
      if (postMovedOn(failure)) {
        const requestId =
          failure instanceof ApiError && failure.requestId ? ` (request ${failure.requestId})` : "";
        await props.onMovedOn(
          `Your edit was not saved: the post was published (or started publishing) before the edit arrived, so it went out as it was. The page now shows it as it is.${requestId}`,
        );
      } else setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="card edit-post" onSubmit={submit} aria-labelledby="edit-title">
      <h2 id="edit-title" class="sub">
        Edit {post.status === "scheduled" ? "or reschedule " : ""}this post
      </h2>
      {!editable && (
        <p class="notice">
          This post is now {post.status}; saving will be refused, as only a draft or a scheduled post can be
          edited.
        </p>
      )}
      <label for="edit-caption">Caption (for every network without its own text)</label>
      <textarea
        id="edit-caption"
        rows={4}
        value={draft.caption}
        onInput={(e) => set({ caption: e.currentTarget.value })}
      />
      <fieldset>
        <legend>Networks</legend>
        {offered.map((rule) => (
          <label key={rule.id} class="check">
            <input
              type="checkbox"
              checked={draft.platforms.includes(rule.id)}
              onChange={(e) => toggle(rule.id, e.currentTarget.checked)}
            />
            {rule.name}
          </label>
        ))}
      </fieldset>
      {draft.platforms.map((id) => {
        const rule = rules.get(id);
        if (!rule) return null;
        const text = draft.texts[id] ?? "";
        const shown = text.trim() === "" ? draft.caption : text;
        const limit =
          post.has_media && rule.textLimitWithMedia !== undefined ? rule.textLimitWithMedia : rule.textLimit;
        const length = lengthOf(shown, rule.lengthUnit);
        return (
          <div key={id} class="own-text">
            <label for={`edit-text-${id}`}>Text on {rule.name} (empty: the caption)</label>
            <textarea
              id={`edit-text-${id}`}
              rows={2}
              value={text}
              onInput={(e) => set({ texts: { ...draft.texts, [id]: e.currentTarget.value } })}
            />
            <p class="help">
              {length.toLocaleString("en")} / {limit.toLocaleString("en")} {unitName(rule.lengthUnit)}
              {length > limit ? " — over the limit: it will be shortened to fit, ending with “…”." : ""}
            </p>
          </div>
        );
      })}
      <label for="edit-media">Media: a new image or video URL, or a med_ id</label>
      <input
        id="edit-media"
        type="text"
        value={draft.media}
        placeholder={post.has_media ? "empty keeps the current media" : "none"}
        disabled={draft.removeMedia}
        onInput={(e) => set({ media: e.currentTarget.value })}
      />
      {post.has_media && (
        <label class="check">
          <input
            type="checkbox"
            checked={draft.removeMedia}
            onChange={(e) => set({ removeMedia: e.currentTarget.checked })}
          />
          Remove the media
        </label>
      )}
      <label for="edit-due">Due time (UTC)</label>
      <input
        id="edit-due"
        type="datetime-local"
        step={60}
        value={draft.due}
        aria-describedby="edit-due-help"
        onInput={(e) => set({ due: e.currentTarget.value })}
      />
      <p id="edit-due-help" class="help">
        {post.status === "scheduled"
          ? "Empty it to make the post a draft again (it then does not publish)."
          : "Set a time to schedule this draft; leave it empty to keep it a draft."}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save changes"}
        </button>
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
