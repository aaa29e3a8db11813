/*
 * Whether a post on X's timeline is the text an attempt sent. X hands a post's text back as it shows
 * it, not as it was sent: &, < and > escaped as HTML; each link wrapped as a t.co address, which its
 * `entities.urls` entry says stands for the address (`expanded_url`; a bare domain such as example.com
 * comes back with a scheme put in front) and shows as `display_url`; and, on a post with media, a t.co
 * link to the media at the end (an entry with a `media_key`), after a space of X's own.
 */

export interface UrlEntity {
  start?: number;
  url?: string | null;
  expanded_url?: string | null;
  display_url?: string | null;
  media_key?: string | null;
}

const HTML_ESCAPES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };

/**
 * True when `shown` (a timeline post's text, with its url entities) is `sent`: the text between X's t.co
 * links the same, each link one way X gives back what was sent there (the address, the address without
 * the scheme X put in front, or the address as shown when X did not shorten it), and a media link only
 * at the end. One pass over both texts, each link looked for after the one before.
 */
export function shownAs(sent: string, shown: string, urls: readonly UrlEntity[]): boolean {
  const plain = shown.replace(/&(?:amp|lt|gt);/g, (entity) => HTML_ESCAPES[entity]!);
  const links = urls
    .filter((u): u is UrlEntity & { url: string } => typeof u.url === "string" && u.url.length > 0)
    .sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  let at = 0; // in `plain`
  let to = 0; // in `sent`
  for (const link of links) {
    const found = plain.indexOf(link.url, at);
    if (found < 0) continue;
    const between = plain.slice(at, found);
    if (link.media_key) {
      // X's media link ends the text; the space before it is X's too.
      const rest = plain.slice(found + link.url.length).trim();
      const before = between.endsWith(" ") ? between.slice(0, -1) : between;
      return rest === "" && sent.slice(to) === before;
    }
    if (!sent.startsWith(between, to)) return false;
    to += between.length;
    const given = addressesFor(link).find((address) => sent.startsWith(address, to));
    if (given === undefined) return false;
    to += given.length;
    at = found + link.url.length;
  }
  return sent.slice(to) === plain.slice(at);
}

/** What a t.co link may have been sent as, the likeliest first. */
function addressesFor(link: UrlEntity & { url: string }): string[] {
  const expanded = link.expanded_url ?? "";
  const bare = expanded.replace(/^https?:\/\//, "");
  const display = link.display_url ?? "";
  return [expanded, bare, display.endsWith("…") ? "" : display, link.url].filter((a) => a !== "");
}
