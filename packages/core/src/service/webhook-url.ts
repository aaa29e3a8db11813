import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { badRequest } from "./http-error.ts";

/** Resolves a host name to its IP addresses. */
export type LookupHost = (host: string) => Promise<string[]>;

export const systemLookup: LookupHost = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

const LOOKUP_TIMEOUT_MS = 3000;
const MAX_URL_LENGTH = 2048;

/** True for an address that routes on the public internet: not loopback, private, link-local, etc. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === "unicast";
}

/**
 * Checks a webhook URL: http(s), no credentials, and — unless private addresses are allowed — a host
 * that resolves only to public addresses, so the service cannot be turned against its own network.
 * Returns the URL as the service will call it.
 */
export async function checkWebhookUrl(
  raw: string,
  allowPrivate: boolean,
  lookupHost: LookupHost,
): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest("url must be an absolute http(s) URL, e.g. https://example.com/webhooks/socialpub.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw badRequest(`url must use https or http, not ${url.protocol.replace(/:$/, "")}.`);
  }
  if (url.username || url.password) throw badRequest("url must not carry a user name or password.");
  if (url.href.length > MAX_URL_LENGTH) throw badRequest(`url must be at most ${MAX_URL_LENGTH} characters.`);
  if (allowPrivate) return url.href;

  const host = url.hostname.replace(/^\[|\]$/g, "");
  const refuse = () =>
    badRequest(
      `url points at ${host}, a loopback, private or link-local address; webhooks go to public addresses (the server can be started to allow private ones for local testing).`,
    );
  if (ipaddr.isValid(host)) {
    if (!isPublicAddress(host)) throw refuse();
    return url.href;
  }
  if (host === "localhost" || host.endsWith(".localhost")) throw refuse();
  let addresses: string[];
  try {
    addresses = await withTimeout(lookupHost(host), LOOKUP_TIMEOUT_MS);
  } catch {
    throw badRequest(`url's host ${host} does not resolve; give a URL that can be reached.`);
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) throw refuse();
  return url.href;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("lookup timed out")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
