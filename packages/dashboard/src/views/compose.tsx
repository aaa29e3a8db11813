import { useEffect, useRef, useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import type { Account, NetworkId, Post } from "../api/types.ts";
import { useApp } from "../context.ts";
import {
  type ComposeDraft,
  contentBody,
  draftFromContent,
  emptyDraft,
  type MediaDraft,
  replaceBody,
  type StoredContent,
} from "../lib/compose.ts";
import { withNetworkNames } from "../lib/network-rules.ts";
import { fromUtcInput, toUtcInput } from "../lib/post-edit.ts";
import { hrefFor } from "../lib/route.ts";
import { ComposePreview, type Validation } from "./compose-preview.tsx";

/** How long typing pauses before the preview is asked for again. */
const PREVIEW_DELAY_MS = 350;

/**
 * Writes a post: the text, each network's own text, media with alt text (uploaded through POST /media),
 * thread parts, the first comment, a poll and per-network options, with each network's preview asked of
 * POST /posts/validate as the user types; then publishes now, schedules or saves a draft. With `id`,
 * edits that draft or scheduled post in the same view (PATCH /posts/{id}).
 */
export function ComposeView({ id }: { id?: string }) {
  const { api, rules, announce } = useApp();
  const [draft, setDraft] = useState<ComposeDraft>(emptyDraft);
  const [connected, setConnected] = useState<NetworkId[]>([]);
  const [due, setDue] = useState("");
  const [validation, setValidation] = useState<Validation | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [loaded, setLoaded] = useState(id === undefined);
  const asked = useRef(0);

  useEffect(() => {
    api
      .get<{ data: Account[] }>("/accounts")
      .then((accounts) => setConnected(accounts.data.map((account) => account.platform)))
      .catch((failure) => setError(describeError(failure)));
  }, [api]);

  // Editing: the post's whole content as stored.
  useEffect(() => {
    if (id === undefined) return;
    const path = `/posts/${encodeURIComponent(id)}`;
    Promise.all([api.get<Post>(path), api.get<StoredContent>(`${path}/content`)])
      .then(([post, content]) => {
        setDraft(draftFromContent(content, post.platforms));
        setDue(post.scheduled_at === null ? "" : toUtcInput(post.scheduled_at));
        setLoaded(true);
      })
      .catch((failure) => setError(describeError(failure)));
  }, [api, id]);

  // The preview, asked again a moment after the last change; an older answer never replaces a newer one.
  useEffect(() => {
    if (!loaded || draft.platforms.length === 0) {
      setValidation(null);
      setPreviewError(null);
      return;
    }
    const ask = ++asked.current;
    const timer = setTimeout(() => {
      api
        .send<Validation>("POST", "/posts/validate", { ...contentBody(draft, rules), draft: true })
        .then((answer) => {
          if (ask !== asked.current) return;
          setValidation(answer);
          setPreviewError(null);
        })
        .catch((failure) => {
          if (ask !== asked.current) return;
          setValidation(null);
          setPreviewError(withNetworkNames(describeError(failure), rules, draft.platforms));
        });
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [api, draft, loaded, rules]);

  const set = (change: Partial<ComposeDraft>) => setDraft((old) => ({ ...old, ...change }));
  const offered = [...rules.values()].filter(
    (rule) => connected.includes(rule.id) || draft.platforms.includes(rule.id),
  );
  const toggle = (network: NetworkId, on: boolean) =>
    set({
      platforms: on
        ? offered.map((rule) => rule.id).filter((p) => p === network || draft.platforms.includes(p))
        : draft.platforms.filter((p) => p !== network),
    });

  async function upload(file: File): Promise<string> {
    const media = await api.upload<{ id: string }>("/media", file);
    announce(`${file.name} uploaded as ${media.id}.`);
    return media.id;
  }

  async function save(kind: "now" | "schedule" | "draft") {
    setBusy(true);
    try {
      let post: Post;
      if (id !== undefined) {
        post = await api.send<Post>("PATCH", `/posts/${encodeURIComponent(id)}`, {
          ...replaceBody(draft, rules),
          schedule_at: kind === "schedule" && due !== "" ? fromUtcInput(due) : null,
        });
        if (kind === "now") post = await api.send<Post>("POST", `/posts/${encodeURIComponent(id)}/publish`);
      } else {
        const when =
          kind === "schedule" ? { schedule_at: fromUtcInput(due) } : kind === "draft" ? { draft: true } : {};
        post = await api.send<Post>("POST", "/posts", { ...contentBody(draft, rules), ...when });
      }
      setError(null);
      announce(`Post ${post.id}: ${post.status}.`);
      location.hash = hrefFor({ view: "post", id: post.id });
    } catch (failure) {
      setError(withNetworkNames(describeError(failure), rules, draft.platforms));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="compose-title">
      <h1 id="compose-title" tabIndex={-1}>
        {id === undefined ? "Write a post" : `Edit ${id}`}
      </h1>
      <div class="compose">
        <form
          class="card compose-form"
          onSubmit={(event) => {
            event.preventDefault();
            void save("now");
          }}
        >
          <fieldset>
            <legend>Networks</legend>
            {offered.length === 0 && (
              <p class="muted">No account is connected: connect one under Accounts.</p>
            )}
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
          <label for="compose-caption">Text</label>
          <textarea
            id="compose-caption"
            rows={5}
            value={draft.caption}
            onInput={(e) => set({ caption: e.currentTarget.value })}
          />
          <label class="check">
            <input
              type="checkbox"
              checked={draft.split}
              onChange={(e) => set({ split: e.currentTarget.checked })}
            />
            Split a text too long for a network into a thread (where the network threads) instead of
            shortening it
          </label>
          {draft.platforms.length > 0 && (
            <details>
              <summary>Text per network</summary>
              {draft.platforms.map((network) => (
                <div key={network}>
                  <label for={`compose-text-${network}`}>
                    Text on {rules.get(network)?.name} (empty: the text above)
                  </label>
                  <textarea
                    id={`compose-text-${network}`}
                    rows={2}
                    value={draft.texts[network] ?? ""}
                    onInput={(e) => set({ texts: { ...draft.texts, [network]: e.currentTarget.value } })}
                  />
                </div>
              ))}
            </details>
          )}
          <MediaList
            label="Media"
            idPrefix="compose-media"
            items={draft.media}
            onChange={(media) => set({ media })}
            upload={upload}
          />
          <fieldset>
            <legend>Thread</legend>
            {draft.thread.map((part, index) => (
              <div key={index} class="thread-part">
                <label for={`compose-part-${index}`}>Part {index + 2}</label>
                <textarea
                  id={`compose-part-${index}`}
                  rows={3}
                  value={part.caption}
                  onInput={(e) =>
                    set({
                      thread: draft.thread.map((p, i) =>
                        i === index ? { ...p, caption: e.currentTarget.value } : p,
                      ),
                    })
                  }
                />
                <MediaList
                  label={`Media of part ${index + 2}`}
                  idPrefix={`compose-part-${index}-media`}
                  items={part.media}
                  onChange={(media) =>
                    set({ thread: draft.thread.map((p, i) => (i === index ? { ...p, media } : p)) })
                  }
                  upload={upload}
                />
                <button
                  type="button"
                  onClick={() => set({ thread: draft.thread.filter((_, i) => i !== index) })}
                >
                  Remove part {index + 2}
                </button>
              </div>
            ))}
            <button
              type="button"
              onClick={() => set({ thread: [...draft.thread, { caption: "", media: [] }] })}
            >
              Add a thread part
            </button>
          </fieldset>
          <label for="compose-first-comment">First comment</label>
          <textarea
            id="compose-first-comment"
            rows={2}
            value={draft.firstComment}
            onInput={(e) => set({ firstComment: e.currentTarget.value })}
          />
          <fieldset>
            <legend>Poll</legend>
            {draft.pollOptions.map((option, index) => (
              <div key={index}>
                <label for={`compose-poll-${index}`}>Choice {index + 1}</label>
                <input
                  id={`compose-poll-${index}`}
                  type="text"
                  value={option}
                  onInput={(e) =>
                    set({
                      pollOptions: draft.pollOptions.map((o, i) => (i === index ? e.currentTarget.value : o)),
                    })
                  }
                />
              </div>
            ))}
            {draft.pollOptions.length < 4 && (
              <button
                type="button"
                onClick={() =>
                  set({ pollOptions: draft.pollOptions.length === 0 ? ["", ""] : [...draft.pollOptions, ""] })
                }
              >
                {draft.pollOptions.length === 0 ? "Add a poll" : "Add a choice"}
              </button>
            )}
            {draft.pollOptions.length > 0 && (
              <>
                <label for="compose-poll-minutes">Open for (minutes)</label>
                <input
                  id="compose-poll-minutes"
                  type="number"
                  min={1}
                  value={draft.pollMinutes}
                  onInput={(e) => set({ pollMinutes: e.currentTarget.value })}
                />
                <button type="button" onClick={() => set({ pollOptions: [] })}>
                  Remove the poll
                </button>
              </>
            )}
          </fieldset>
          {draft.platforms.some((network) => rules.get(network)?.options) && (
            <details>
              <summary>Options per network</summary>
              {draft.platforms.map((network) => {
                const fields = rules.get(network)?.options;
                if (!fields) return null;
                const values = draft.options[network] ?? {};
                const setOption = (name: string, value: string) =>
                  set({ options: { ...draft.options, [network]: { ...values, [name]: value } } });
                return (
                  <fieldset key={network}>
                    <legend>{rules.get(network)?.name}</legend>
                    {Object.entries(fields).map(([name, kind]) => {
                      const fieldId = `compose-option-${network}-${name}`;
                      const value = values[name] ?? "";
                      return (
                        <div key={name}>
                          <label for={fieldId}>{name.replaceAll("_", " ")}</label>
                          {kind === "flag" || typeof kind === "object" ? (
                            <select
                              id={fieldId}
                              value={value}
                              onChange={(e) => setOption(name, e.currentTarget.value)}
                            >
                              <option value="">(the network's default)</option>
                              {(kind === "flag" ? ["true", "false"] : kind.choices).map((choice) => (
                                <option key={choice} value={choice}>
                                  {choice}
                                </option>
                              ))}
                            </select>
                          ) : (
                            <input
                              id={fieldId}
                              type="text"
                              value={value}
                              placeholder={kind === "list" ? "comma-separated" : ""}
                              onInput={(e) => setOption(name, e.currentTarget.value)}
                            />
                          )}
                        </div>
                      );
                    })}
                  </fieldset>
                );
              })}
            </details>
          )}
          <label for="compose-due">Schedule for (UTC)</label>
          <input
            id="compose-due"
            type="datetime-local"
            step={60}
            value={due}
            onInput={(e) => setDue(e.currentTarget.value)}
          />
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <div class="actions">
            <button type="submit" disabled={busy}>
              Publish now
            </button>
            <button type="button" disabled={busy || due === ""} onClick={() => void save("schedule")}>
              Schedule
            </button>
            <button type="button" disabled={busy} onClick={() => void save("draft")}>
              Save as draft
            </button>
          </div>
        </form>
        <ComposePreview
          rules={rules}
          validation={validation}
          error={previewError}
          poll={
            draft.pollOptions.length > 0 ? { options: draft.pollOptions, minutes: draft.pollMinutes } : null
          }
        />
      </div>
    </section>
  );
}

/** A list of media items: each a URL (or an upload's med_ id) with its alt text. */
function MediaList(props: {
  label: string;
  idPrefix: string;
  items: MediaDraft[];
  onChange(items: MediaDraft[]): void;
  upload(file: File): Promise<string>;
}) {
  const { items, onChange, idPrefix } = props;
  const [error, setError] = useState<string | null>(null);
  const change = (index: number, next: Partial<MediaDraft>) =>
    onChange(items.map((item, i) => (i === index ? { ...item, ...next } : item)));
  return (
    <fieldset class="media-list">
      <legend>{props.label}</legend>
      {items.map((item, index) => (
        <div key={index} class="media-item">
          <label for={`${idPrefix}-${index}`}>Item {index + 1}: URL or med_ id</label>
          <input
            id={`${idPrefix}-${index}`}
            type="text"
            value={item.ref}
            onInput={(e) => change(index, { ref: e.currentTarget.value })}
          />
          <label for={`${idPrefix}-${index}-alt`}>Alt text of item {index + 1}</label>
          <input
            id={`${idPrefix}-${index}-alt`}
            type="text"
            maxLength={1000}
            value={item.alt}
            onInput={(e) => change(index, { alt: e.currentTarget.value })}
          />
          <button type="button" onClick={() => onChange(items.filter((_, i) => i !== index))}>
            Remove item {index + 1}
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...items, { ref: "", alt: "" }])}>
        Add by URL
      </button>
      <label class="upload">
        Upload a file
        <input
          type="file"
          accept="image/*,video/*"
          onChange={async (e) => {
            const file = e.currentTarget.files?.[0];
            if (!file) return;
            try {
              const ref = await props.upload(file);
              onChange([...items, { ref, alt: "" }]);
              setError(null);
            } catch (failure) {
              setError(describeError(failure));
            }
          }}
        />
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
