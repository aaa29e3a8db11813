import type { ComponentChildren } from "preact";
import { describeError } from "../api/client.ts";
import { back, type CursorStack, forward, pageNumber } from "../lib/cursor-stack.ts";
import { formatRelative, formatShortTime, formatTime } from "../lib/time.ts";

/** A status as a word (never as colour alone), styled by its value. */
export function Badge({ value }: { value: string }) {
  return <span class={`badge badge-${value.replaceAll("_", "-")}`}>{value.replaceAll("_", " ")}</span>;
}

export function ErrorMessage({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <p class="error" role="alert">
      {describeError(error)}
    </p>
  );
}

/**
 * An instant as UTC, with how far it is from now for humans. `short` drops the zone, for table columns
 * whose header says UTC, and the seconds unless `seconds` keeps them.
 */
export function Time({
  ms,
  short = false,
  seconds = false,
}: {
  ms: number | null;
  short?: boolean;
  seconds?: boolean;
}) {
  if (ms === null) return <span class="muted">—</span>;
  return (
    <time dateTime={new Date(ms).toISOString()} title={formatRelative(ms, Date.now())}>
      {short ? formatShortTime(ms, seconds) : formatTime(ms)}
    </time>
  );
}

/**
 * Previous/next through a cursor-paginated list: `pages` is the cursors followed so far, `next` the
 * cursor of the page after this one (none on the last page).
 */
export function Pager(props: {
  label: string;
  pages: CursorStack;
  next: string | null | undefined;
  onPages(pages: CursorStack): void;
}) {
  const { pages, next } = props;
  return (
    <nav class="pager" aria-label={props.label}>
      <button
        type="button"
        class="secondary"
        disabled={pageNumber(pages) <= 1}
        onClick={() => props.onPages(back(pages))}
      >
        ← Newer
      </button>
      <span>Page {pageNumber(pages)}</span>
      <button
        type="button"
        class="secondary"
        disabled={!next}
        onClick={() => next && props.onPages(forward(pages, next))}
      >
        Older →
      </button>
    </nav>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}
