import { useEffect, useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import type { Page, ResendResult, WebhookAttempt } from "../api/types.ts";
import { useApp } from "../context.ts";
import { currentCursor, firstPage } from "../lib/cursor-stack.ts";
import { formatDuration } from "../lib/time.ts";
import { usePoll } from "../poll.ts";
import { Empty, ErrorMessage, Pager, Time } from "./parts.tsx";

const ATTEMPTS_PER_PAGE = 50;

/** "200", "503", or why no answer came. */
function outcome(attempt: WebhookAttempt): string {
  if (attempt.response_status !== null) return String(attempt.response_status);
  return attempt.error ?? "no answer";
}

function outcomeClass(attempt: WebhookAttempt): string {
  const status = attempt.response_status;
  return status !== null && status >= 200 && status < 300 ? "ok" : "bad";
}

/** GET /webhooks/{id}/attempts, newest first, each with a button to resend its event. */
export function AttemptsTable(props: { endpointId: string; refreshKey: number }) {
  const { api, clock, announce } = useApp();
  const [pages, setPages] = useState(firstPage);
  const [error, setError] = useState<string | null>(null);
  const cursor = currentCursor(pages);
  const path = `/webhooks/${encodeURIComponent(props.endpointId)}`;
  const attempts = usePoll<Page<WebhookAttempt>>(
    () => api.list<WebhookAttempt>(`${path}/attempts`, { limit: ATTEMPTS_PER_PAGE, cursor }),
    `${props.endpointId}|${cursor ?? ""}`,
    clock,
  );

  useEffect(() => setPages(firstPage), [props.endpointId]);
  useEffect(() => {
    if (props.refreshKey > 0) void attempts.refresh();
  }, [props.refreshKey]);

  async function resend(attempt: WebhookAttempt) {
    try {
      const result = await api.send<ResendResult>(
        "POST",
        `${path}/events/${encodeURIComponent(attempt.event_id)}/resend`,
      );
      setError(null);
      announce(`Event ${result.event_id} (${attempt.event_type}) sent again.`);
      await attempts.refresh();
    } catch (failure) {
      setError(describeError(failure));
    }
  }

  const rows = attempts.data?.data ?? [];
  return (
    <>
      <ErrorMessage error={attempts.error} />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {attempts.loading ? (
        <p aria-busy="true">Loading deliveries…</p>
      ) : rows.length === 0 ? (
        <Empty>No delivery attempts yet: events appear here as the service sends them.</Empty>
      ) : (
        <div class="table-wrap">
          <table class="attempts">
            <caption class="visually-hidden">Delivery attempts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Sent (UTC)</th>
                <th scope="col">Response</th>
                <th scope="col" class="num">
                  Latency
                </th>
                <th scope="col">Next retry (UTC)</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((attempt) => (
                <tr key={attempt.id} data-attempt-id={attempt.id} data-event-id={attempt.event_id}>
                  <th scope="row">
                    {attempt.event_type}
                    <span class="id">{attempt.event_id}</span>
                  </th>
                  <td>#{attempt.attempt}</td>
                  <td>
                    <Time ms={attempt.at} short seconds />
                  </td>
                  <td>
                    <span class={`outcome ${outcomeClass(attempt)}`}>{outcome(attempt)}</span>
                    {attempt.response_status !== null && attempt.error && (
                      <span class="muted"> {attempt.error}</span>
                    )}
                  </td>
                  <td class="num">{formatDuration(attempt.duration_ms)}</td>
                  <td>
                    <Time ms={attempt.next_attempt_at} short seconds />
                  </td>
                  <td>
                    <button type="button" class="secondary" onClick={() => resend(attempt)}>
                      Resend
                      <span class="visually-hidden">
                        {" "}
                        {attempt.event_type} event {attempt.event_id}
                      </span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Pages of delivery attempts" pages={pages} next={attempts.data?.next} onPages={setPages} />
    </>
  );
}
