import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { badRequest } from "../service/http-error.ts";

/** Resolves a host name to its IP addresses. */
export type LookupHost = (host: string) => Promise<string[]>;

export const systemLookup: LookupHost = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

const LOOKUP_TIMEOUT_MS = 3000;
const MAX_URL_LENGTH = 2048;

/**
 * The IPv4 addresses an IPv6 address carries, by the forms that embed one: IPv4-compatible (::a.b.c.d,
 * which URL parsing turns into ::7f00:1), IPv4-mapped (::ffff:a.b.c.d), IPv4-translated
 * (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96, and 64:ff9b:1::/48 read both ways RFC 6052 allows), 6to4
 * (2002::/16), Teredo (2001::/32: its server, and its client stored inverted) and ISATAP (an interface
 * id of 0:5efe or 200:5efe). Empty for an address that embeds none.
 */
export function embeddedIPv4s(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const b = address.toByteArray();
  const v4 = (...bytes: number[]) => new ipaddr.IPv4(bytes);
  const last = v4(b[12]!, b[13]!, b[14]!, b[15]!);
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 12)) return [last];
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return [last];
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return [last];
  const word = (i: number) => (b[i]! << 8) | b[i + 1]!;
  if (word(0) === 0x64 && word(2) === 0xff9b && zero(4, 12)) return [last];
  if (word(0) === 0x64 && word(2) === 0xff9b && word(4) === 1) return [last, v4(b[6]!, b[7]!, b[9]!, b[10]!)];
  if (word(0) === 0x2002) return [v4(b[2]!, b[3]!, b[4]!, b[5]!)];
  if (word(0) === 0x2001 && word(2) === 0) {
    return [v4(b[4]!, b[5]!, b[6]!, b[7]!), v4(b[12]! ^ 0xff, b[13]! ^ 0xff, b[14]! ^ 0xff, b[15]! ^ 0xff)];
  }
  if ((word(8) === 0 || word(8) === 0x200) && word(10) === 0x5efe) return [last];
  return [];
}

/** Ranges ipaddr.js gives the IPv6 forms that embed an IPv4 address (the compatible form is "unicast"). */
const EMBEDDING_RANGES = new Set(["ipv4Mapped", "rfc6145", "rfc6052", "6to4", "teredo"]);

/**
 * True for an address that routes on the public internet: not loopback, private, link-local, etc. An
 * IPv6 address that embeds IPv4 addresses is judged by them, so `[::127.0.0.1]` is loopback.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  const embedded = embeddedIPv4s(v6);
  if (embedded.length === 0) return range === "unicast";
  // An ISATAP address also needs a public prefix of its own (fe80::5efe:8.8.8.8 is link-local).
  return (
    (range === "unicast" || EMBEDDING_RANGES.has(range)) && embedded.every((v4) => v4.range() === "unicast")
  );
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
