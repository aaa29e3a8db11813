import { hash } from "node:crypto";
import type { NetworkId } from "../../contract/networks.ts";

/**
 * Sandbox permalinks: each in the shape of the network's real post URLs, and derived only from the post
 * id, the network and the account handle, so the same post always gets the same link. `of` tells a
 * thread's later parts and the first comment apart ("part 1", "comment"); the first part is the post's
 * own link.
 */
export async function sandboxPermalink(
  postId: string,
  platform: NetworkId,
  handle: string,
  of = "part 0",
): Promise<string> {
  // Hashed in place: Web Crypto's digest goes through the thread pool, slow for a few bytes.
  const seed: Uint8Array = hash(
    "sha256",
    of === "part 0" ? `${postId}:${platform}` : `${postId}:${platform}:${of}`,
    "buffer",
  );
  const digits = (n: number, from = 0) => decimal(seed, from, n);
  const code = (n: number, from = 0) => alphabetCode(seed, from, n, SHORTCODE);
  const h = encodeURIComponent(handle.replace(/^@/, ""));
  return PERMALINKS[platform]({ h, digits, code, seed });
}

interface Seeded {
  /** The account handle, without its @, as it goes in a URL. */
  h: string;
  /** n decimal digits from the seed, the first not zero, starting at byte `from`. */
  digits: (n: number, from?: number) => string;
  /** n characters of the shortcode alphabet from the seed. */
  code: (n: number, from?: number) => string;
  seed: Uint8Array;
}

/** Each network's post URL shape, keyed by the contract's ids: a network added there is added here. */
const PERMALINKS: Readonly<Record<NetworkId, (s: Seeded) => string>> = {
  tiktok: ({ h, digits }) => `https://www.tiktok.com/@${h}/video/${digits(19)}`,
  instagram: ({ code }) => `https://www.instagram.com/p/${code(11)}/`,
  youtube: ({ code }) => `https://www.youtube.com/watch?v=${code(11)}`,
  x: ({ h, digits }) => `https://x.com/${h}/status/${digits(19)}`,
  linkedin: ({ digits }) => `https://www.linkedin.com/feed/update/urn:li:share:${digits(19)}/`,
  facebook: ({ h, digits }) => `https://www.facebook.com/${h}/posts/${digits(16)}`,
  threads: ({ h, code }) => `https://www.threads.com/@${h}/post/${code(11)}`,
  pinterest: ({ digits }) => `https://www.pinterest.com/pin/${digits(18)}/`,
  reddit: ({ h, seed }) => `https://www.reddit.com/user/${h}/comments/${alphabetCode(seed, 0, 7, BASE36)}/`,
  bluesky: ({ h, seed }) => `https://bsky.app/profile/${h}/post/${alphabetCode(seed, 0, 13, TID)}`,
  discord: ({ digits }) => `https://discord.com/channels/${digits(18, 0)}/${digits(18, 8)}/${digits(19, 16)}`,
  telegram: ({ h, seed }) => `https://t.me/${h}/${(readUint32(seed, 0) % 100_000) + 1}`,
};

const SHORTCODE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz";
/** Bluesky record keys are TIDs: base32 with this sortable alphabet. */
const TID = "234567abcdefghijklmnopqrstuvwxyz";

function readUint32(bytes: Uint8Array, from: number): number {
  const at = (i: number) => bytes[(from + i) % bytes.length]!;
  return ((at(0) << 24) | (at(1) << 16) | (at(2) << 8) | at(3)) >>> 0;
}

/** An n-digit decimal number with a non-zero first digit, like the snowflake ids networks use. */
function decimal(bytes: Uint8Array, from: number, n: number): string {
  let out = String((bytes[from % bytes.length]! % 9) + 1);
  for (let i = 1; i < n; i++) out += String(bytes[(from + i) % bytes.length]! % 10);
  return out;
}

function alphabetCode(bytes: Uint8Array, from: number, n: number, alphabet: string): string {
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[bytes[(from + i) % bytes.length]! % alphabet.length];
  // A Bluesky TID starts with a character below "k" (its first bit is zero).
  return alphabet === TID ? `${alphabet[bytes[from % bytes.length]! % 16]}${out.slice(1)}` : out;
}
