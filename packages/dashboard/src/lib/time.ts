const ULID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * When a record was created, read from its id: ids are `<prefix>_` + a ULID, whose first ten
 * characters are the creation time in ms. Null when the id is not in that shape.
 */
export function timeFromId(id: string): number | null {
  const ulid = id.slice(id.indexOf("_") + 1);
  if (ulid.length !== 26) return null;
  let ms = 0;
  for (const char of ulid.slice(0, 10).toUpperCase()) {
    const digit = ULID_ALPHABET.indexOf(char);
    if (digit < 0) return null;
    ms = ms * 32 + digit;
  }
  return ms;
}

/** "2026-06-15 12:00:05 UTC": one unambiguous form everywhere, as the API's times are UTC instants. */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/**
 * "2026-06-15 12:00", or with `seconds` "2026-06-15 12:00:05": for tables whose column header says
 * UTC. Seconds where a few of them matter (a delivery and its retry 5 s later).
 */
export function formatShortTime(ms: number, seconds = false): string {
  return new Date(ms)
    .toISOString()
    .slice(0, seconds ? 19 : 16)
    .replace("T", " ");
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

/** "in 5 minutes", "3 hours ago", "now" */
export function formatRelative(ms: number, now: number): string {
  const diff = ms - now;
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size) return format.format(Math.trunc(diff / size), unit);
  }
  return "now";
}

/** "120 ms", "1.5 s" */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
