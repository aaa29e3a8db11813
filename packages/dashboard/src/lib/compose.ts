import type { NetworkId } from "../api/types.ts";
import type { NetworkRules } from "./network-rules.ts";

/*
 * What the composer holds, and the API bodies made from it. Pure, so it is tested without a browser:
 * the view only renders a draft and sends these bodies.
 */

/** One media item: a URL or the med_ id of an upload, with its alt text. */
export interface MediaDraft {
  ref: string;
  alt: string;
}

export interface PartDraft {
  caption: string;
  media: MediaDraft[];
}

export interface ComposeDraft {
  caption: string;
  platforms: NetworkId[];
  /** Each network's own text; empty means the caption. */
  texts: Partial<Record<NetworkId, string>>;
  media: MediaDraft[];
  /** Further parts of a thread, after the post itself. */
  thread: PartDraft[];
  /** Split a text too long for a threading network into a thread instead of shortening it. */
  split: boolean;
  firstComment: string;
  /** A poll's options; empty: no poll. */
  pollOptions: string[];
  pollMinutes: string;
  /** Per-network options as the form holds them: network → field → text ("" leaves it out). */
  options: Partial<Record<NetworkId, Record<string, string>>>;
}

export function emptyDraft(): ComposeDraft {
  return {
    caption: "",
    platforms: [],
    texts: {},
    media: [],
    thread: [],
    split: false,
    firstComment: "",
    pollOptions: [],
    pollMinutes: "1440",
    options: {},
  };
}

type MediaItem = string | { url: string; alt?: string } | { id: string; alt?: string };

function mediaItems(media: readonly MediaDraft[]): MediaItem[] {
  return media
    .filter((item) => item.ref.trim() !== "")
    .map((item) => {
      const ref = item.ref.trim();
      const alt = item.alt.trim();
      if (alt === "") return ref;
      return ref.startsWith("med_") ? { id: ref, alt } : { url: ref, alt };
    });
}

/** The `media` of a body: one plain reference as the contract has it, a list for more or alt text. */
function mediaField(media: readonly MediaDraft[]): string | MediaItem[] | undefined {
  const items = mediaItems(media);
  if (items.length === 0) return undefined;
  if (items.length === 1 && typeof items[0] === "string") return items[0];
  return items;
}

/** The per-network options of the chosen networks, typed as the API takes them; empty fields left out. */
function optionsField(
  draft: ComposeDraft,
  rules: NetworkRules,
): Record<string, Record<string, unknown>> | undefined {
  const out: Record<string, Record<string, unknown>> = {};
  for (const id of draft.platforms) {
    const fields = rules.get(id)?.options;
    const values = draft.options[id];
    if (!fields || !values) continue;
    const network: Record<string, unknown> = {};
    for (const [name, kind] of Object.entries(fields)) {
      const value = (values[name] ?? "").trim();
      if (value === "") continue;
      if (kind === "flag") network[name] = value === "true";
      else if (kind === "list")
        network[name] = value
          .split(",")
          .map((tag) => tag.trim())
          .filter(Boolean);
      else network[name] = value;
    }
    if (Object.keys(network).length > 0) out[id] = network;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The content fields of POST /posts, POST /posts/validate and (whole) PATCH /posts/{id}. */
export function contentBody(draft: ComposeDraft, rules: NetworkRules): Record<string, unknown> {
  const body: Record<string, unknown> = { caption: draft.caption, platforms: draft.platforms };
  const captions: Partial<Record<NetworkId, string>> = {};
  for (const id of draft.platforms) {
    const text = (draft.texts[id] ?? "").trim();
    if (text !== "") captions[id] = text;
  }
  if (Object.keys(captions).length > 0) body.captions = captions;
  const media = mediaField(draft.media);
  if (media !== undefined) body.media = media;
  const thread = draft.thread
    .map((part) => {
      const partMedia = mediaField(part.media);
      return { caption: part.caption, ...(partMedia !== undefined && { media: partMedia }) };
    })
    .filter((part) => part.caption.trim() !== "" || part.media !== undefined);
  if (thread.length > 0) body.thread = thread;
  if (draft.split) body.split = "thread";
  if (draft.firstComment.trim() !== "") body.first_comment = draft.firstComment.trim();
  const pollOptions = draft.pollOptions.map((option) => option.trim()).filter(Boolean);
  if (pollOptions.length > 0)
    body.poll = { options: pollOptions, duration_minutes: Number.parseInt(draft.pollMinutes, 10) || 0 };
  const options = optionsField(draft, rules);
  if (options !== undefined) body.options = options;
  return body;
}

/**
 * PATCH /posts/{id} for a draft or scheduled post edited in the composer: every content field, with
 * null (or {}) for what the composer emptied, so the post becomes exactly what the form shows.
 */
export function replaceBody(draft: ComposeDraft, rules: NetworkRules): Record<string, unknown> {
  const body = contentBody(draft, rules);
  return {
    caption: body.caption,
    platforms: body.platforms,
    captions: body.captions ?? {},
    media: body.media ?? null,
    thread: body.thread ?? null,
    ...(draft.split ? { split: "thread" } : { split: "shorten" }),
    first_comment: body.first_comment ?? null,
    poll: body.poll ?? null,
    options: body.options ?? null,
  };
}

/** GET /posts/{id}/content's answer, as the composer reads it back to edit a post. */
export interface StoredContent {
  caption: string;
  captions: Partial<Record<NetworkId, string>>;
  media: { url: string; type: string | null; alt: string | null }[];
  thread: { caption: string; media: { url: string; alt: string | null }[] }[];
  first_comment: string | null;
  poll: { options: string[]; duration_minutes: number } | null;
  options: Partial<Record<NetworkId, Record<string, unknown>>>;
  split: "shorten" | "thread";
}

/** The composer's draft for a stored post's content and networks. */
export function draftFromContent(content: StoredContent, platforms: readonly NetworkId[]): ComposeDraft {
  const media = (items: { url: string; alt: string | null }[]) =>
    items.map((item) => ({ ref: item.url, alt: item.alt ?? "" }));
  const options: ComposeDraft["options"] = {};
  for (const [id, values] of Object.entries(content.options ?? {})) {
    options[id as NetworkId] = Object.fromEntries(
      Object.entries(values ?? {}).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(", ") : String(value),
      ]),
    );
  }
  return {
    caption: content.caption,
    platforms: [...platforms],
    texts: { ...content.captions },
    media: media(content.media),
    thread: content.thread.map((part) => ({ caption: part.caption, media: media(part.media) })),
    split: content.split === "thread",
    firstComment: content.first_comment ?? "",
    pollOptions: content.poll?.options ?? [],
    pollMinutes: String(content.poll?.duration_minutes ?? 1440),
    options,
  };
}
