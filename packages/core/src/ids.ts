import { monotonicFactory, type ULIDFactory } from "ulid";

/** Prefixes of every id the service issues (decisions: "prefixed and time-sortable"). */
export type IdPrefix = "usr" | "key" | "post" | "evt" | "wh" | "med" | "dlv" | "att" | "req";

let factory: ULIDFactory | undefined;

/**
 * `<prefix>_<ULID>`. The factory is monotonic, so ids made within one millisecond (or while a fake
 * clock stands still or steps back) still sort in creation order: lists order posts by id.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  factory ??= monotonicFactory();
  return `${prefix}_${factory(now)}`;
}
