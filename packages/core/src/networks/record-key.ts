import { hash } from "node:crypto";
import type { NetworkId } from "../contract/networks.ts";

const BASE32_SORTABLE = "234567abcdefghijklmnopqrstuvwxyz";

/**
 * The stable key of one post on one network (PublishInput.key): the same for every attempt, across
 * restarts, so a network that lets the caller name the new post (Bluesky's record key) can never get
 * it twice. It is an atproto TID — 13 base32-sortable characters holding a 53-bit microsecond time and
 * a 10-bit clock id — built from the post's creation time and a hash of the post id and network, so
 * keys sort by when posts were made and differ per network.
 */
export function publishKey(postId: string, createdAt: number, platform: NetworkId): string {
  const digest = hash("sha256", `${postId}:${platform}`, "buffer");
  const micros = BigInt(createdAt) * 1000n + BigInt(digest.readUInt16BE(0) % 1000);
  const clockId = BigInt(digest.readUInt16BE(2) & 0x3ff);
  let value = ((micros & ((1n << 53n) - 1n)) << 10n) | clockId;
  let out = "";
  for (let i = 0; i < 13; i++) {
    out = BASE32_SORTABLE[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}
