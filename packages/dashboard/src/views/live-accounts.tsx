import { useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import type { Account, NetworkId, NetworkRule } from "../api/types.ts";
import { useApp } from "../context.ts";
import { connectBody, LIVE_NETWORKS } from "../lib/live-networks.ts";
import { OAUTH_NETWORKS } from "../lib/oauth-networks.ts";
import { usePoll } from "../poll.ts";
import { AccountCells, AccountsPage } from "./accounts-table.tsx";
import { OAuthConnect } from "./oauth-connect.tsx";
import { Badge } from "./parts.tsx";

const HEALTH_HELP: Record<Account["health"], string> = {
  healthy: "publishing works",
  expiring: "its credentials expire soon: reconnect",
  reauth_required: "the network refused its credentials: reconnect to publish again",
};

/**
 * A live key's accounts: each network that can be connected with pasted credentials, with its real
 * handle, health and followers; Connect or Reconnect (POST /accounts/connect, checked by the network at
 * once) and Disconnect (DELETE /accounts/{platform}). The secrets typed here live only in the form's
 * masked fields until sent: never in state, storage or the address, never shown back. Networks that
 * connect through their own page (OAuth) get a Connect button that opens it (oauth-connect.tsx).
 */
export function LiveAccountsView() {
  const { api, rules, clock } = useApp();
  const accounts = usePoll(() => api.get<{ data: Account[] }>("/accounts"), "accounts", clock);
  const [error, setError] = useState<string | null>(null);
  const connected = accounts.data?.data ?? [];
  const byPlatform = new Map(connected.map((account) => [account.platform, account]));
  // Networks a live key can connect, in the contract's order, and any other live account.
  const shown = [...rules.values()].filter(
    (rule) => LIVE_NETWORKS.has(rule.id) || OAUTH_NETWORKS.has(rule.id) || byPlatform.has(rule.id),
  );

  async function run(action: () => Promise<unknown>): Promise<boolean> {
    try {
      await action();
      setError(null);
      await accounts.refresh();
      return true;
    } catch (failure) {
      setError(describeError(failure));
      return false;
    }
  }

  return (
    <AccountsPage
      title="Live accounts"
      help={
        <>
          Signed in with a live key: posts go to these accounts for real. Credentials are checked with the
          network when you connect, then stored encrypted by the server; this page never keeps or shows them.
          Networks that connect through their own page open it in a new tab: grant access there, and this page
          shows the account once the network sends you back. A network the server is not set up for says which
          setting it lacks.
        </>
      }
      loadError={accounts.error}
      error={error}
      caption="Networks and their live accounts"
    >
      {shown.map((rule) => (
        <LiveAccountRow
          key={rule.id}
          rule={rule}
          account={byPlatform.get(rule.id)}
          run={run}
          refresh={accounts.refresh}
        />
      ))}
    </AccountsPage>
  );
}

function LiveAccountRow(props: {
  rule: NetworkRule;
  account: Account | undefined;
  run(action: () => Promise<unknown>): Promise<boolean>;
  refresh(): Promise<void>;
}) {
  const { api, announce } = useApp();
  const { rule, account } = props;
  const [reconnecting, setReconnecting] = useState(false);
  const connectable = LIVE_NETWORKS.has(rule.id);
  const throughPage = OAUTH_NETWORKS.has(rule.id);

  return (
    <tr data-platform={rule.id}>
      <AccountCells rule={rule} account={account} />
      <td>
        {account ? (
          <>
            <Badge value={account.health} /> <span class="muted">{HEALTH_HELP[account.health]}</span>
          </>
        ) : (
          <span class="muted">—</span>
        )}
      </td>
      <td>
        {throughPage && (
          <OAuthConnect rule={rule} account={account} run={props.run} refresh={props.refresh} />
        )}
        {account && (
          <div class="actions">
            {connectable && !reconnecting && (
              <button type="button" onClick={() => setReconnecting(true)}>
                Reconnect {rule.name}
              </button>
            )}
            <button
              type="button"
              class="danger"
              onClick={() => {
                if (!confirm(`Disconnect ${rule.name}? The server deletes its credentials.`)) return;
                void props.run(async () => {
                  await api.send("DELETE", `/accounts/${encodeURIComponent(rule.id)}`);
                  setReconnecting(false);
                  announce(`${rule.name} disconnected.`);
                });
              }}
            >
              Disconnect {rule.name}
            </button>
          </div>
        )}
        {connectable && (!account || reconnecting) && (
          <CredentialsForm
            platform={rule.id}
            name={rule.name}
            reconnect={account !== undefined}
            onCancel={account ? () => setReconnecting(false) : undefined}
            onSubmit={(form) =>
              props.run(async () => {
                const connected = await api.send<Account>(
                  "POST",
                  "/accounts/connect",
                  connectBody(rule.id, form),
                );
                setReconnecting(false);
                announce(`${rule.name} connected as ${connected.handle}.`);
              })
            }
          />
        )}
      </td>
    </tr>
  );
}

/** The network's credential fields, uncontrolled: what is typed is read once, on submit, and sent. */
function CredentialsForm(props: {
  platform: NetworkId;
  name: string;
  reconnect: boolean;
  onCancel?: () => void;
  onSubmit(form: FormData): Promise<boolean>;
}) {
  const [busy, setBusy] = useState(false);
  const prefix = `connect-${props.platform}`;
  return (
    <form
      class="stacked credentials"
      autocomplete="off"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        setBusy(true);
        try {
          // Emptied once connected, so no credential stays in the page.
          if (await props.onSubmit(new FormData(form))) form.reset();
        } finally {
          setBusy(false);
        }
      }}
    >
      {(LIVE_NETWORKS.get(props.platform) ?? []).map((field) => {
        const id = `${prefix}-${field.name}`;
        const common = {
          id,
          name: field.name,
          spellcheck: false,
          required: field.required,
          placeholder: field.placeholder,
          "aria-describedby": field.help ? `${id}-help` : undefined,
        };
        return (
          <div key={field.name} class="field">
            <label for={id}>
              {field.label} for {props.name}
              {field.required ? "" : " (optional)"}
            </label>
            {field.secret ? (
              <input {...common} type="password" autocomplete="new-password" />
            ) : (
              <input {...common} type="text" autocomplete="off" />
            )}
            {field.help && (
              <span id={`${id}-help`} class="help">
                {field.help}
              </span>
            )}
          </div>
        );
      })}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? "Checking with the network…" : `${props.reconnect ? "Reconnect" : "Connect"} ${props.name}`}
        </button>
        {props.onCancel && (
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
