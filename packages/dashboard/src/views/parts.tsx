import type { ComponentChildren } from "preact";
import { describeError } from "../api/client.ts";
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

/** Previous/next through a cursor-paginated list. */
export function Pager(props: {
  label: string;
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious(): void;
  onNext(): void;
}) {
  return (
    <nav class="pager" aria-label={props.label}>
      <button type="button" class="secondary" disabled={!props.hasPrevious} onClick={props.onPrevious}>
        ← Newer
      </button>
      <span>Page {props.page}</span>
      <button type="button" class="secondary" disabled={!props.hasNext} onClick={props.onNext}>
        Older →
      </button>
    </nav>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}
