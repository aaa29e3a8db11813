// The record key of a post, chosen by us: Bluesky lets the client pick it, so a retry (after a timeout,
// after a crash) re-sends the same key and the PDS cannot make a second post.
//
// The service's key is already a TID built from the post's time (core's publishKey): it is used as it
// is. Any other key is turned into one here, the same key always into the same TID.
//
// app.bsky.feed.post records are keyed by a TID (13 characters: microseconds since 1970 and a 10-bit
// clock id, base32-sortable). Clients sort and page posts by it, so it should carry the post's time:
// when the service's key holds one of our ids (a ULID, whose first 10 characters are its creation time
// in milliseconds), the TID takes that time; the microseconds within that millisecond and the clock id
// come from a hash of the whole key, so two keys of the same post (two accounts, two attempts with a
// changed key) still differ. A key without an id falls back to a time taken from the hash.
import { createHash } from "node:crypto";
import { TID } from "@atproto/common-web";

const TID_PATTERN = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const ULID = /[0-9A-HJKMNP-TV-Z]{26}/;
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** 2024-01-01T00:00:00Z in microseconds: the fallback time range starts here and spans about 12 days. */
const FALLBACK_EPOCH_US = 1_704_067_200_000_000;

function ulidMilliseconds(ulid: string): number {
  let ms = 0;
  for (const char of ulid.slice(0, 10)) ms = ms * 32 + CROCKFORD.indexOf(char);
  return ms;
}

/**
 * The record key of a thread's part after the first (`index` 1, 2, …) or of its first comment
 * (`"comment"`), derived from the post's record key: the same post always gives the same keys, so a part
 * whose answer never came is found by reading its key, and a second create of it is refused by the PDS.
 * Each key's time is the post's, plus the part's place in microseconds (the first comment after every
 * part), so the records sort in the thread's order; its clock id comes from a hash of the post's key
 * and the part, so no two of them share a key.
 */
export function partRecordKey(key: string, index: number | "comment"): string {
  const first = recordKeyFor(key);
  if (index === 0) return first;
  const place = index === "comment" ? MAX_PARTS : index;
  const micros = TID.fromStr(first).timestamp() + place;
  const hash = createHash("sha256").update(`${first}#${index}`).digest();
  return TID.fromTime(micros, hash.readUInt16BE(0) & 0x3ff).toString();
}

/** A post and at most 24 further parts (decisions.md "Rich posts"): the first comment's place is after them. */
const MAX_PARTS = 25;

/** The TID record key for `key`: the same key always gives the same record key. */
export function recordKeyFor(key: string): string {
  if (TID_PATTERN.test(key)) return key;
  if (key === "") throw new Error("a publish key is required to choose the record key");
  const hash = createHash("sha256").update(key).digest();
  const clockId = hash.readUInt16BE(0) & 0x3ff;
  const ulid = ULID.exec(key)?.[0];
  const micros =
    ulid !== undefined
      ? ulidMilliseconds(ulid) * 1000 + (hash.readUInt16BE(2) % 1000)
      : FALLBACK_EPOCH_US + (hash.readUInt32BE(4) % 2 ** 30) * 1000 + (hash.readUInt16BE(2) % 1000);
  return TID.fromTime(micros, clockId).toString();
}
