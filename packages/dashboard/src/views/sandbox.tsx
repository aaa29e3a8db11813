import { useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import type { Account, AccountHealth, NetworkRule } from "../api/types.ts";
import { useApp } from "../context.ts";
import { usePoll } from "../poll.ts";
import { AccountCells, AccountsPage } from "./accounts-table.tsx";

const HEALTH: AccountHealth[] = ["healthy", "expiring", "reauth_required"];

/** Every network, connected or not: connect, disconnect, and set health as the network would. */
export function SandboxView() {
  const { api, rules, clock } = useApp();
  const accounts = usePoll(() => api.get<{ data: Account[] }>("/accounts"), "accounts", clock);
  const [error, setError] = useState<string | null>(null);
  const byPlatform = new Map((accounts.data?.data ?? []).map((account) => [account.platform, account]));

  async function run(action: () => Promise<unknown>) {
    try {
      await action();
      setError(null);
      await accounts.refresh();
    } catch (failure) {
      setError(describeError(failure));
    }
  }

  return (
    <AccountsPage
      title="Sandbox accounts"
      help={
        <>
          Sandbox networks publish at once and deterministically. An account that needs reconnecting (
          <code>reauth_required</code>) makes its network fail the next post, with the reason on the post's
          card. Metrics are reported from each published network's card on a post.
        </>
      }
      loadError={accounts.error}
      error={error}
      caption="Networks and their sandbox accounts"
    >
      {[...rules.values()].map((rule) => (
        <AccountRow key={rule.id} rule={rule} account={byPlatform.get(rule.id)} run={run} />
      ))}
    </AccountsPage>
  );
}

function AccountRow(props: {
  rule: NetworkRule;
  account: Account | undefined;
  run(action: () => Promise<unknown>): void;
}) {
  const { api, announce } = useApp();
  const { rule, account } = props;
  const platform = encodeURIComponent(rule.id);
  const handleId = `handle-${rule.id}`;
  const healthId = `health-${rule.id}`;
  return (
    <tr data-platform={rule.id}>
      <AccountCells rule={rule} account={account} />
      <td>
        {account ? (
          <>
            <label class="visually-hidden" for={healthId}>
              Health of the {rule.name} account
            </label>
            <select
              id={healthId}
              value={account.health}
              onChange={(event) => {
                const health = event.currentTarget.value;
                props.run(async () => {
                  await api.send("PATCH", `/sandbox/accounts/${platform}`, { health });
                  announce(`${rule.name} account health set to ${health.replaceAll("_", " ")}.`);
                });
              }}
            >
              {HEALTH.map((value) => (
                <option key={value} value={value}>
                  {value.replaceAll("_", " ")}
                </option>
              ))}
            </select>
          </>
        ) : (
          <span class="muted">—</span>
        )}
      </td>
      <td>
        {account ? (
          <button
            type="button"
            class="secondary"
            onClick={() =>
              props.run(async () => {
                await api.send("DELETE", `/accounts/${platform}`);
                announce(`${rule.name} disconnected.`);
              })
            }
          >
            Disconnect {rule.name}
          </button>
        ) : (
          <form
            class="inline"
            onSubmit={(event) => {
              event.preventDefault();
              const handle = String(new FormData(event.currentTarget).get("handle") ?? "").trim();
              props.run(async () => {
                await api.send("POST", "/accounts/connect", { platform: rule.id, ...(handle && { handle }) });
                announce(`${rule.name} connected.`);
              });
            }}
          >
            <label class="visually-hidden" for={handleId}>
              Handle for {rule.name} (optional)
            </label>
            <input id={handleId} name="handle" placeholder="handle (optional)" autocomplete="off" />
            <button type="submit">Connect {rule.name}</button>
          </form>
        )}
      </td>
    </tr>
  );
}
