/** A host as a Host header names it: a name or IPv4 address, or a bracketed IPv6 one, and a port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin clients reached the service at, for the absolute URLs an answer gives (uploaded media's
 * `url`): the request's own, or, when `trustProxy` is on, the scheme and host a reverse proxy in front
 * says the client used. Read from X-Forwarded-Proto and X-Forwarded-Host when the proxy sets either,
 * else from Forwarded (RFC 7239); of a list, the first value, the one the proxy nearest the client set.
 * A value that is not an http(s) scheme or a plain host is ignored: the request's own is kept.
 *
 * Off by default: without a proxy that replaces these headers, any client could name the host the
 * service writes into the URLs it gives back.
 */
export function publicOriginOf(request: Request, url: URL, trustProxy: boolean): string {
  if (!trustProxy) return url.origin;
  const headers = request.headers;
  const xProto = headers.get("x-forwarded-proto");
  const xHost = headers.get("x-forwarded-host");
  let proto: string | undefined;
  let host: string | undefined;
  if (xProto !== null || xHost !== null) {
    proto = firstOf(xProto);
    host = firstOf(xHost);
  } else {
    const forwarded = headers.get("forwarded");
    if (forwarded === null) return url.origin;
    ({ proto, host } = forwardedPairs(firstOf(forwarded) ?? ""));
  }
  const scheme = proto?.toLowerCase();
  const usedScheme = scheme === "http" || scheme === "https" ? scheme : url.protocol.slice(0, -1);
  const usedHost = host !== undefined && HOST.test(host) ? host : url.host;
  try {
    return new URL(`${usedScheme}://${usedHost}`).origin;
  } catch {
    return url.origin; // a port past 65535
  }
}

/** The first element of a comma-separated header, trimmed; undefined when there is none. */
function firstOf(value: string | null): string | undefined {
  const first = value?.split(",", 1)[0]?.trim();
  return first ? first : undefined;
}

/** `proto` and `host` of one Forwarded element (`for=…;proto=https;host="example.com"`). */
function forwardedPairs(element: string): { proto?: string; host?: string } {
  const pairs: { proto?: string; host?: string } = {};
  for (const pair of element.split(";")) {
    const at = pair.indexOf("=");
    if (at === -1) continue;
    const name = pair.slice(0, at).trim().toLowerCase();
    const value = pair
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    if (name === "proto" || name === "host") pairs[name] = value;
  }
  return pairs;
}
