import { useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import type { EventType, WebhookEndpoint } from "../api/types.ts";
import { useApp } from "../context.ts";
import { hrefFor } from "../lib/route.ts";
import { usePoll } from "../poll.ts";
import { AttemptsTable } from "./attempts.tsx";
import { Badge, Empty, ErrorMessage, Time } from "./parts.tsx";

/** Webhook endpoints, and for the one chosen every delivery attempt with a way to resend an event. */
export function WebhooksView({ selected }: { selected?: string }) {
  const { api, clock, announce } = useApp();
  const endpoints = usePoll(() => api.get<{ data: WebhookEndpoint[] }>("/webhooks"), "webhooks", clock);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const list = endpoints.data?.data ?? [];
  const current = list.find((endpoint) => endpoint.id === selected) ?? (selected ? undefined : list[0]);

  async function create(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const url = String(new FormData(form).get("url") ?? "").trim();
    try {
      const endpoint = await api.send<WebhookEndpoint & { secret: string }>("POST", "/webhooks", { url });
      setError(null);
      setCreated({ id: endpoint.id, secret: endpoint.secret });
      form.reset();
      announce(`Endpoint ${endpoint.id} added.`);
      await endpoints.refresh();
      location.hash = hrefFor({ view: "webhooks", id: endpoint.id });
    } catch (failure) {
      setError(describeError(failure));
    }
  }

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title" tabIndex={-1}>
        Webhooks
      </h1>
      <ErrorMessage error={endpoints.error} />
      <div class="split">
        <div class="endpoints">
          <h2 class="sub">Endpoints</h2>
          {endpoints.loading ? (
            <p aria-busy="true">Loading…</p>
          ) : list.length === 0 ? (
            <Empty>No endpoints yet.</Empty>
          ) : (
            <ul class="endpoint-list">
              {list.map((endpoint) => (
                <li key={endpoint.id}>
                  <a
                    href={hrefFor({ view: "webhooks", id: endpoint.id })}
                    aria-current={endpoint.id === current?.id ? "true" : undefined}
                  >
                    <span class="url">{endpoint.url}</span>
                    <span class="id">{endpoint.id}</span>
                  </a>
                  <Badge value={endpoint.status} />
                </li>
              ))}
            </ul>
          )}
          <form class="stacked" onSubmit={create}>
            <label for="endpoint-url">Add an endpoint (URL)</label>
            <input id="endpoint-url" name="url" type="url" required placeholder="https://example.com/hooks" />
            <button type="submit">Add endpoint</button>
          </form>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          {created && (
            <div class="notice" role="status">
              <p>Signing secret of {created.id}, shown only now — keep it with your receiver:</p>
              <p>
                <code class="secret">{created.secret}</code>
              </p>
              <button type="button" class="secondary" onClick={() => setCreated(null)}>
                Hide the secret
              </button>
            </div>
          )}
        </div>
        <div class="deliveries">
          {current ? (
            <EndpointDetail
              endpoint={current}
              onChanged={() => endpoints.refresh()}
              onDeleted={async () => {
                await endpoints.refresh();
                location.hash = hrefFor({ view: "webhooks" });
              }}
            />
          ) : (
            selected && !endpoints.loading && <p>No endpoint {selected} belongs to this key's user.</p>
          )}
        </div>
      </div>
    </section>
  );
}

function EndpointDetail(props: { endpoint: WebhookEndpoint; onChanged(): Promise<void>; onDeleted(): void }) {
  const { api, announce } = useApp();
  const { endpoint } = props;
  const [error, setError] = useState<string | null>(null);
  const [testType, setTestType] = useState<EventType>(endpoint.events[0] ?? "post.published");
  const [refreshKey, setRefreshKey] = useState(0);
  const path = `/webhooks/${encodeURIComponent(endpoint.id)}`;

  async function sendTest() {
    try {
      await api.send("POST", `${path}/test`, { type: testType });
      setError(null);
      announce(`A test ${testType} event was queued for this endpoint.`);
      setRefreshKey((n) => n + 1);
    } catch (failure) {
      setError(describeError(failure));
    }
  }

  async function enable() {
    try {
      await api.send("PATCH", path, { status: "enabled" });
      setError(null);
      announce(`Endpoint ${endpoint.id} enabled: it receives the events written from now on.`);
      await props.onChanged();
    } catch (failure) {
      setError(describeError(failure));
    }
  }

  async function remove() {
    if (!confirm(`Delete the endpoint ${endpoint.url}? Events still owed to it are dropped.`)) return;
    try {
      await api.send("DELETE", path);
      announce(`Endpoint ${endpoint.id} deleted.`);
      props.onDeleted();
    } catch (failure) {
      setError(describeError(failure));
    }
  }

  return (
    <div>
      <h2 class="sub">
        Deliveries to <span class="url">{endpoint.url}</span>
      </h2>
      <p class="muted">
        {endpoint.id} · added <Time ms={endpoint.created_at} /> · subscribed to {endpoint.events.join(", ")}
      </p>
      {endpoint.status === "disabled" && (
        <div class="notice" role="status">
          <p>
            This endpoint is disabled: it answered 410 Gone, so nothing is sent to it. Enabling it sends the
            events written from then on; resend any event it missed from the list below.
          </p>
          <button type="button" onClick={enable}>
            Enable endpoint
          </button>
        </div>
      )}
      <div class="actions">
        <label for="test-type">Test event type</label>
        <select
          id="test-type"
          value={testType}
          onChange={(e) => setTestType(e.currentTarget.value as EventType)}
        >
          {endpoint.events.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        <button type="button" class="secondary" onClick={sendTest}>
          Send a test event
        </button>
        <button type="button" class="danger" onClick={remove}>
          Delete endpoint
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <AttemptsTable endpointId={endpoint.id} refreshKey={refreshKey} />
    </div>
  );
}
