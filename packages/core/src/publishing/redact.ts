import type { Credentials } from "../networks/adapter.ts";

/**
 * `text` with every credential value in it replaced, so that an adapter's error message (which may
 * quote a URL holding a bot token or a webhook token) can be shown, logged and sent in events. Short
 * values (flags, small ids) are left: they are not secrets and would mangle ordinary words.
 */
export function redactCredentials(text: string, credentials: Credentials): string {
  let out = text;
  for (const value of Object.values(credentials)) {
    if (typeof value !== "string" || value.length < 8) continue;
    out = out.split(value).join("[redacted]");
    // A secret can also appear URL-encoded (in a path or query).
    const encoded = encodeURIComponent(value);
    if (encoded !== value) out = out.split(encoded).join("[redacted]");
  }
  return out;
}
