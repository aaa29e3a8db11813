import { CliError } from "../cli/errors.ts";

/**
 * SOCIALPUB_PUBLIC_URL, checked: an absolute http(s) address without a query, a fragment or a user, as
 * OAuth networks require of a redirect URL. Undefined when unset. Read by `start` and by
 * `accounts connect --live`, which must build the same redirect URL as the server that finishes it.
 */
export function publicUrlFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new CliError(
      `SOCIALPUB_PUBLIC_URL must be the server's address as browsers reach it, such as https://social.example.com (http or https, no query or user); got ${JSON.stringify(value)}.`,
    );
  }
  return url.href.replace(/\/+$/, "");
}
