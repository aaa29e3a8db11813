import { useRef, useState } from "preact/hooks";
import { createApi, describeError } from "../api/client.ts";
import type { CurrentUser } from "../api/types.ts";

/** Checks the key with GET /me before keeping it: a wrong key gets the API's own message. */
export function SignIn(props: { notice: string | null; onSignedIn(key: string, user: CurrentUser): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function submit(event: Event) {
    event.preventDefault();
    const key = input.current?.value.trim() ?? "";
    if (key === "") {
      setError("Enter an API key (it starts with sp_test_ or sp_live_).");
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const user = await createApi(key, () => {}).get<CurrentUser>("/me");
      props.onSignedIn(key, user);
    } catch (failure) {
      setError(describeError(failure));
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" class="sign-in">
      <h1>socialpub sandbox dashboard</h1>
      <p>
        See what your integration did: each post as every network shows it, webhook deliveries, and the key's
        accounts (the sandbox's with a test key, the live ones with a live key).
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <form onSubmit={submit} aria-describedby="key-help" noValidate>
        <label for="api-key">API key</label>
        <input
          ref={input}
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          required
          aria-invalid={error !== null}
          aria-describedby={error ? "key-error key-help" : "key-help"}
        />
        <p id="key-help" class="help">
          The page shows only this key's user. The key stays in this tab (session storage) and is removed when
          you sign out or close the tab. <code>npm start</code> prints a test key (
          <code>API key: sp_test_…</code>) the first time it runs; later starts print the server's{" "}
          <code>keys create</code> command, which makes another key for a user (a live <code>sp_live_…</code>{" "}
          key with <code>--live</code>).
        </p>
        {error && (
          <p id="key-error" class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
