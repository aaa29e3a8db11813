import { useEffect, useState } from "preact/hooks";
import type { Account, NetworkRule } from "../api/types.ts";
import { useApp } from "../context.ts";
import {
  accountFingerprint,
  CONNECT_POLL_MS,
  OAUTH_FIELDS,
  type OAuthStart,
  oauthConnectBody,
} from "../lib/oauth-networks.ts";

interface Pending {
  url: string;
  expiresAt: number;
  /** The account as it was when Connect was pressed: any change means the callback landed. */
  before: string;
}

/**
 * Connect (or Reconnect) for a network whose users grant access on its own page: starts the connect
 * (POST /accounts/connect), opens the authorize URL in a new tab without giving it this page as its
 * opener or referrer, and waits for the account to change — reading GET /accounts every few seconds
 * while this tab is visible and at once when it comes back into view, as it does when the person
 * closes the network's tab. A server that cannot connect the network answers 400 naming what is
 * missing, shown by `run` like every other refusal.
 */
export function OAuthConnect(props: {
  rule: NetworkRule;
  account: Account | undefined;
  run(action: () => Promise<unknown>): Promise<boolean>;
  refresh(): Promise<void>;
}) {
  const { api, announce } = useApp();
  const { rule, account } = props;
  const [pending, setPending] = useState<Pending | null>(null);
  const [expired, setExpired] = useState(false);
  const now = accountFingerprint(account);

  // The callback landed: the account appeared or changed.
  useEffect(() => {
    if (pending === null || now === pending.before) return;
    setPending(null);
    if (account) announce(`${rule.name} connected as ${account.handle}.`);
  }, [now, pending, account, rule.name, announce]);

  useEffect(() => {
    if (pending === null) return;
    const check = () => {
      if (Date.now() >= pending.expiresAt) {
        setPending(null);
        setExpired(true);
        return;
      }
      if (document.visibilityState === "visible") void props.refresh();
    };
    const timer = setInterval(check, CONNECT_POLL_MS);
    document.addEventListener("visibilitychange", check);
    window.addEventListener("focus", check);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", check);
      window.removeEventListener("focus", check);
    };
  }, [pending, props.refresh]);

  const verb = account ? "Reconnect" : "Connect";
  return (
    <div class="oauth-connect">
      {pending === null ? (
        <form
          class="stacked credentials"
          autocomplete="off"
          onSubmit={(event) => {
            event.preventDefault();
            const body = oauthConnectBody(rule.id, new FormData(event.currentTarget));
            void props.run(async () => {
              setExpired(false);
              const started = await api.send<OAuthStart>("POST", "/accounts/connect", body);
              setPending({
                url: started.authorize_url,
                expiresAt: Date.parse(started.expires_at),
                before: now,
              });
              // noopener: the network's page gets no handle on this one; noreferrer: nor its address.
              window.open(started.authorize_url, "_blank", "noopener,noreferrer");
            });
          }}
        >
          {(OAUTH_FIELDS.get(rule.id) ?? []).map((field) => {
            const id = `connect-${rule.id}-${field.name}`;
            return (
              <div key={field.name} class="field">
                <label for={id}>
                  {field.label} for {rule.name} (optional)
                </label>
                <input
                  id={id}
                  name={field.name}
                  type="text"
                  spellcheck={false}
                  placeholder={field.placeholder}
                  aria-describedby={field.help ? `${id}-help` : undefined}
                />
                {field.help && (
                  <span id={`${id}-help`} class="help">
                    {field.help}
                  </span>
                )}
              </div>
            );
          })}
          <div class="actions">
            <button type="submit">
              {verb} {rule.name}
            </button>
          </div>
        </form>
      ) : (
        <p class="help" role="status">
          Waiting for {rule.name}: grant access on its page, opened in a new tab. If no tab opened,{" "}
          <a href={pending.url} target="_blank" rel="noopener noreferrer">
            open {rule.name}'s page
          </a>
          . This page updates once {rule.name} sends you back.{" "}
          <button type="button" class="secondary" onClick={() => setPending(null)}>
            Stop waiting
          </button>
        </p>
      )}
      {expired && pending === null && (
        <p class="help">
          The {rule.name} connect was not finished within 15 minutes; press {verb} {rule.name} to start again.
        </p>
      )}
    </div>
  );
}
