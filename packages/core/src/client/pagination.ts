import LinkHeader from "http-link-header";

/** One page of a list: the items, and the cursor of the next page (null on the last page). */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** The `rel="next"` target of a Link header, resolved against the URL that answered; null when absent. */
export function nextPageUrl(headers: Headers, answeredUrl: string): string | null {
  const value = headers.get("link");
  if (!value) return null;
  const next = LinkHeader.parse(value).rel("next")[0];
  return next ? new URL(next.uri, answeredUrl).href : null;
}

/** The opaque `cursor` query parameter of a next-page URL. */
export function cursorOf(url: string | null): string | null {
  return url === null ? null : new URL(url).searchParams.get("cursor");
}
