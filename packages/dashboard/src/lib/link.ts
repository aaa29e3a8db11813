import LinkHeader from "http-link-header";

/**
 * The `cursor` of the rel="next" link of a list response, or null on the last page. Lists carry the
 * next page's URL in a Link header and keep their body as `{"data": [...]}`.
 */
export function nextCursor(link: string | null): string | null {
  if (!link) return null;
  let parsed: LinkHeader;
  try {
    parsed = LinkHeader.parse(link);
  } catch {
    return null;
  }
  const next = parsed.rel("next")[0];
  if (!next) return null;
  return new URL(next.uri, "http://page.invalid/").searchParams.get("cursor");
}
