/*
 * The `media` input: one item per line, each an http(s) URL (or a service's med_ id) with optional alt
 * text after " | ", e.g.
 *   https://example.com/dashboard.png | The new dashboard, with the composer open
 *   https://example.com/settings.png
 * One line without alt text is sent as the API's plain `media` string, as before; more (or alt text)
 * as its list of items. Checked before anything is posted.
 */
import { MAX_ALT_LENGTH, MAX_MEDIA_ITEMS, type MediaItem } from "@socialpub/core";
import { InputError } from "./input-error.ts";

export interface MediaInput {
  /** An http(s) URL, or a med_ id from the service. */
  ref: string;
  alt?: string;
}

export function parseMediaInput(value: string): MediaInput[] {
  const items: MediaInput[] = [];
  for (const raw of value.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    const bar = line.indexOf("|");
    const ref = (bar === -1 ? line : line.slice(0, bar)).trim();
    const alt = bar === -1 ? "" : line.slice(bar + 1).trim();
    if (!/^https?:\/\/\S+$/i.test(ref) && !/^med_\w+$/.test(ref)) {
      throw new InputError(
        `The \`media\` input "${ref.slice(0, 200)}" is neither a URL nor a media id. Give a publicly reachable http(s) URL of an image or video, or a med_ id returned by the service, one per line, each optionally followed by " | " and its alt text.`,
      );
    }
    if ([...alt].length > MAX_ALT_LENGTH) {
      throw new InputError(
        `The alt text of \`media\` item ${items.length + 1} is ${[...alt].length} characters; networks take at most ${MAX_ALT_LENGTH}. Shorten it.`,
      );
    }
    items.push(alt === "" ? { ref } : { ref, alt });
  }
  if (items.length > MAX_MEDIA_ITEMS) {
    throw new InputError(
      `The \`media\` input lists ${items.length} items; a post takes at most ${MAX_MEDIA_ITEMS}. Remove some lines.`,
    );
  }
  return items;
}

/** The API's `media` for these items: a plain string for one item without alt text, else the list. */
export function mediaBody(items: readonly MediaInput[]): string | MediaItem[] | undefined {
  if (items.length === 0) return undefined;
  const [only] = items;
  if (items.length === 1 && only && only.alt === undefined) return only.ref;
  return items.map((item) => {
    const named = item.ref.startsWith("med_") ? { id: item.ref } : { url: item.ref };
    return item.alt === undefined ? named : { ...named, alt: item.alt };
  });
}
