import type { NetworkId, Post, UpdatePostBody } from "../api/types.ts";

/** What the edit form holds. Times are `YYYY-MM-DDTHH:MM` in UTC, as the page shows every time. */
export interface EditDraft {
  caption: string;
  platforms: NetworkId[];
  /** Each network's own text; empty means the caption. */
  texts: Partial<Record<NetworkId, string>>;
  /** A new media URL or med_ id; empty keeps the media as it is. */
  media: string;
  removeMedia: boolean;
  /** The due time; empty leaves a draft a draft, and makes a scheduled post a draft again. */
  due: string;
}

/** The form as the post is now: its caption, networks, each network's own text and due time. */
export function draftOf(post: Post, ownTexts: Partial<Record<NetworkId, string>>): EditDraft {
  return {
    caption: post.caption,
    platforms: [...post.platforms],
    texts: { ...ownTexts },
    media: "",
    removeMedia: false,
    due: post.scheduled_at === null ? "" : toUtcInput(post.scheduled_at),
  };
}

/** "2026-06-15T12:00" for an instant: the value of a datetime-local input read as UTC. */
export function toUtcInput(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

/** The API's form of a datetime-local value read as UTC: "2026-06-15T12:00:00Z". */
export function fromUtcInput(value: string): string {
  return `${value}:00Z`;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * The PATCH /posts/{id} body for what the form changed, or null when it changed nothing. Only changed
 * fields are sent, so an edit of the caption keeps the networks' own texts. When any network's text
 * changed, `captions` is sent whole (the API replaces the overrides): every chosen network's non-empty
 * text.
 */
export function editBody(before: EditDraft, after: EditDraft): UpdatePostBody | null {
  const body: UpdatePostBody = {};
  if (after.caption !== before.caption) body.caption = after.caption;
  if (!sameList(after.platforms, before.platforms)) body.platforms = after.platforms;
  const textOf = (draft: EditDraft, id: NetworkId) => (draft.texts[id] ?? "").trim();
  const networks = new Set([...before.platforms, ...after.platforms]);
  if ([...networks].some((id) => textOf(after, id) !== textOf(before, id))) {
    const captions: Partial<Record<NetworkId, string>> = {};
    for (const id of after.platforms) if (textOf(after, id) !== "") captions[id] = after.texts[id]!.trim();
    body.captions = captions;
  }
  if (after.removeMedia) body.media = null;
  else if (after.media.trim() !== "") body.media = after.media.trim();
  if (after.due !== before.due) body.schedule_at = after.due === "" ? null : fromUtcInput(after.due);
  return Object.keys(body).length === 0 ? null : body;
}
