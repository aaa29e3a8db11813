import { monotonicFactory, type ULIDFactory } from "ulid";

/** Prefixes of every id the service issues (decisions: "prefixed and time-sortable"). */
export type IdPrefix = "usr" | "key" | "post" | "evt" | "wh" | "med" | "dlv" | "att" | "req";

let factory: ULIDFactory | undefined;

/**
 * `<prefix>_<ULID>`. The factory is monotonic, so ids made within one millisecond (or while a fake
 * clock stands still or steps back) still sort in creation order: lists order posts by id.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  factory ??= monotonicFactory(pooledRandom());
  return `${prefix}_${factory(now)}`;
}

/**
 * The same source ulid picks by default — a cryptographically random byte / 256 per character — but
 * drawn from a pool filled 256 bytes at a time: ulid asks for one byte per character, and a call to
 * getRandomValues for each of them cost a few percent of every request (each has an id).
 */
function pooledRandom(): () => number {
  const pool = new Uint8Array(256);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      crypto.getRandomValues(pool);
      next = 0;
    }
    return pool[next++]! / 256;
  };
}
