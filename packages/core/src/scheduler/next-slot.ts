/**
 * The next optimal slot for `POST /schedule` with `at: "next"` (decisions.md): the hour of the week
 * with the best reported engagement for the post's networks over the last 90 days — among hours with
 * enough evidence (`MIN_POSTS_PER_HOUR` published posts with reported figures) — else a default grid
 * of 09:00, 12:00 and 17:00 UTC; never sooner than 5 minutes ahead, and at most one post per network
 * in a slot.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

export const SLOT_LEAD_MS = 5 * 60_000;
export const SLOT_HISTORY_MS = 90 * DAY;
export const DEFAULT_SLOT_HOURS_UTC = [9, 12, 17] as const;
/**
 * An hour of the week counts only with reported figures from at least this many published posts in
 * it: one report on one post made its hour "best" and sent the next post a week away.
 */
export const MIN_POSTS_PER_HOUR = 3;
/** How many weeks ahead a best hour is tried before the next best one. */
const WEEKS_PER_HOUR = 4;
/** How far ahead the default grid is searched. */
const GRID_DAYS = 366;

export interface PublishedFigures {
  /** The post the figures are of (one post has figures on each of its networks). */
  post_id: string;
  published_at: number;
  reach: number;
  /** likes + comments + shares */
  interactions: number;
}

/**
 * Hours of the week ranked by engagement rate (then reach), from figures in the history window; only
 * hours with figures from at least `MIN_POSTS_PER_HOUR` posts.
 */
export function rankHoursOfWeek(history: readonly PublishedFigures[], now: number): number[] {
  const byHour = new Map<number, { reach: number; interactions: number; posts: Set<string> }>();
  for (const h of history) {
    if (h.reach <= 0 || h.published_at < now - SLOT_HISTORY_MS || h.published_at > now) continue;
    const hour = hourOfWeek(h.published_at);
    const row = byHour.get(hour) ?? { reach: 0, interactions: 0, posts: new Set<string>() };
    row.reach += h.reach;
    row.interactions += h.interactions;
    row.posts.add(h.post_id);
    byHour.set(hour, row);
  }
  return [...byHour.entries()]
    .filter(([, row]) => row.posts.size >= MIN_POSTS_PER_HOUR)
    .sort(([ha, a], [hb, b]) => {
      const byRate = b.interactions / b.reach - a.interactions / a.reach;
      return byRate !== 0 ? byRate : b.reach - a.reach || ha - hb;
    })
    .map(([hour]) => hour);
}

/** 0–167, counted in whole UTC hours from the Unix epoch; the same instant each week. */
export function hourOfWeek(ms: number): number {
  return Math.floor(ms / HOUR) % 168;
}

/**
 * The start of the next free slot. `isFree(slotStart)` says whether no other post of these networks
 * is due in the hour starting then.
 */
export function nextSlot(options: {
  now: number;
  history: readonly PublishedFigures[];
  isFree: (slotStart: number) => boolean;
}): number | null {
  const earliest = options.now + SLOT_LEAD_MS;
  for (const hour of rankHoursOfWeek(options.history, options.now)) {
    const first = firstOccurrence(hour, earliest);
    for (let week = 0; week < WEEKS_PER_HOUR; week++) {
      const at = first + week * WEEK;
      if (options.isFree(at)) return at;
    }
  }
  const day = Math.floor(earliest / DAY) * DAY;
  for (let d = 0; d < GRID_DAYS; d++) {
    for (const hour of DEFAULT_SLOT_HOURS_UTC) {
      const at = day + d * DAY + hour * HOUR;
      if (at >= earliest && options.isFree(at)) return at;
    }
  }
  return null;
}

/** The first start of `hour` (of the week) at or after `from`. */
function firstOccurrence(hour: number, from: number): number {
  const start = Math.ceil(from / HOUR) * HOUR;
  const shift = (hour - hourOfWeek(start) + 168) % 168;
  return start + shift * HOUR;
}

/** The start of the hour containing `ms`: the slot a due time falls in. */
export function slotOf(ms: number): number {
  return Math.floor(ms / HOUR) * HOUR;
}
