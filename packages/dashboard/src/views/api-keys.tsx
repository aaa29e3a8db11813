import { useRef, useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import type { ApiKey, CreatedApiKey } from "../api/types.ts";
import { useApp } from "../context.ts";
import { hintOf } from "../lib/key-hint.ts";
import { usePoll } from "../poll.ts";
import { Badge, Empty, ErrorMessage, Time } from "./parts.tsx";

/**
 * Settings → API keys: the user's keys (hints only), a form that makes a test or live key and shows it
 * once with a copy button, and revoking. A test key manages test keys only, as the API says.
 */
export function ApiKeysView() {
  const { api, clock, live, signedInKey } = useApp();
  // Keys made elsewhere show up on the page's schedule; their last use moving is not a change that
  // keeps the page polling fast.
  const keys = usePoll(() => api.get<{ data: ApiKey[] }>("/keys"), "keys", clock, { countsAsChange: false });
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const ownHint = hintOf(signedInKey);
  const list = keys.data?.data ?? [];

  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title" tabIndex={-1}>
        Settings
      </h1>
      <h2 class="sub" id="api-keys">
        API keys
      </h2>
      <p class="help">
        A key is shown once, when it is made: copy it then. The service keeps only its hash, so a lost key
        cannot be shown again; revoke it and make another. A revoked key is refused at once.{" "}
        {live
          ? "This live key manages live and test keys."
          : "This test key manages test keys only: sign in with a live key (sp_live_…) to make or revoke live keys."}
      </p>
      <ErrorMessage error={keys.error} />
      {keys.loading ? (
        <p aria-busy="true">Loading…</p>
      ) : list.length === 0 ? (
        <Empty>No keys.</Empty>
      ) : (
        <div class="table-wrap">
          <table class="keys stacks">
            <caption class="visually-hidden">API keys, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Mode</th>
                <th scope="col">Created (UTC)</th>
                <th scope="col">Last used (UTC)</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((key) => (
                <KeyRow
                  key={key.id}
                  apiKey={key}
                  inUse={key.hint === ownHint}
                  onError={setError}
                  onRevoked={() => keys.refresh()}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <CreateKeyForm
        onCreated={async (key) => {
          setCreated(key);
          setError(null);
          await keys.refresh();
        }}
        onError={setError}
      />
      {created && <NewKey created={created} onHide={() => setCreated(null)} />}
    </section>
  );
}

function KeyRow(props: {
  apiKey: ApiKey;
  inUse: boolean;
  onError(message: string | null): void;
  onRevoked(): Promise<void>;
}) {
  const { api, announce, signOut } = useApp();
  const { apiKey, inUse } = props;
  const label = apiKey.name ?? apiKey.hint;

  async function revoke() {
    const warning = inUse
      ? `Revoke ${label}? It is the key this page is signed in with: the page signs out at once.`
      : `Revoke ${label}? Every request made with it is refused from now on.`;
    if (!confirm(warning)) return;
    try {
      await api.send("DELETE", `/keys/${encodeURIComponent(apiKey.id)}`);
    } catch (failure) {
      props.onError(describeError(failure));
      return;
    }
    props.onError(null);
    if (inUse) {
      signOut(
        `Signed out: you revoked the key this page was signed in with (${apiKey.hint}). Sign in with another key.`,
      );
      return;
    }
    announce(`Key ${label} revoked.`);
    await props.onRevoked();
  }

  return (
    <tr data-key-id={apiKey.id}>
      <th scope="row">
        {apiKey.name ?? <span class="muted">unnamed</span>}
        {inUse && <span class="id">this page's key</span>}
      </th>
      <td data-label="Key">
        <code>{apiKey.hint}</code>
      </td>
      <td data-label="Mode">
        <Badge value={apiKey.mode} />
      </td>
      <td data-label="Created (UTC)">
        <Time ms={apiKey.created_at} short />
      </td>
      <td data-label="Last used (UTC)">
        {apiKey.last_used_at === null ? (
          <span class="muted">never</span>
        ) : (
          <Time ms={apiKey.last_used_at} short />
        )}
      </td>
      <td>
        <button type="button" class="danger" onClick={revoke} aria-label={`Revoke ${label}`}>
          Revoke
        </button>
      </td>
    </tr>
  );
}

function CreateKeyForm(props: {
  onCreated(key: CreatedApiKey): Promise<void>;
  onError(message: string): void;
}) {
  const { api, live, announce } = useApp();
  const [busy, setBusy] = useState(false);

  async function create(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const name = String(data.get("name") ?? "").trim();
    const mode = live ? String(data.get("mode") ?? "test") : "test";
    setBusy(true);
    try {
      const key = await api.send<CreatedApiKey>("POST", "/keys", { mode, ...(name && { name }) });
      form.reset();
      announce(`A ${key.mode} key was made. It is shown below, once.`);
      await props.onCreated(key);
    } catch (failure) {
      props.onError(describeError(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="stacked new-key" onSubmit={create}>
      <h3 class="sub">Create a key</h3>
      <label for="key-name">Name (optional: where the key will be used)</label>
      <input id="key-name" name="name" maxLength={100} placeholder="CI deploys" autocomplete="off" />
      {live ? (
        <>
          <label for="key-mode">Mode</label>
          <select id="key-mode" name="mode">
            <option value="test">test: sandbox networks</option>
            <option value="live">live: publishes for real</option>
          </select>
        </>
      ) : (
        <p class="muted">A test key (sandbox networks).</p>
      )}
      <button type="submit" disabled={busy}>
        Create key
      </button>
    </form>
  );
}

/** The key just made, shown this once, with a button that copies it. */
function NewKey({ created, onHide }: { created: CreatedApiKey; onHide(): void }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied("Copied.");
    } catch {
      // No clipboard here (an address that is not https or localhost): select it for a manual copy.
      field.current?.select();
      setCopied("Selected: press Ctrl+C (⌘C) to copy.");
    }
  }

  return (
    <div class="notice new-key-shown" role="status">
      <p>
        {created.mode === "live" ? "Live" : "Test"} key {created.name ? `“${created.name}” ` : ""}(
        {created.id}), shown only now — copy it and keep it as a secret:
      </p>
      <div class="copy-row">
        <label class="visually-hidden" for="new-key">
          The new API key
        </label>
        <input
          id="new-key"
          ref={field}
          class="secret"
          readOnly
          value={created.key}
          autocomplete="off"
          spellcheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      {copied && <p>{copied}</p>}
      <button type="button" class="secondary" onClick={onHide}>
        Hide the key
      </button>
    </div>
  );
}
