import { useCallback, useMemo, useState } from "preact/hooks";
import { type ApiError, createApi } from "./api/client.ts";
import type { CurrentUser } from "./api/types.ts";
import type { NetworkRules } from "./lib/network-rules.ts";
import { clearKey, storedKey, storeKey } from "./session.ts";
import { Shell } from "./shell.tsx";
import { SignIn } from "./views/sign-in.tsx";

/** Signed out: the sign-in form. Signed in: the dashboard for that key's user, and nothing else. */
export function Root({ rules }: { rules: NetworkRules }) {
  const [key, setKey] = useState<string | null>(storedKey);
  const [notice, setNotice] = useState<string | null>(null);

  const signOut = useCallback((reason: string | null) => {
    clearKey();
    setKey(null);
    setNotice(reason);
  }, []);

  const signOutWith = useCallback(
    (reason?: string) => signOut(reason ?? "Signed out. The key was removed from this tab."),
    [signOut],
  );

  const api = useMemo(
    () =>
      key === null
        ? null
        : createApi(key, (error: ApiError) => {
            // A call still in flight when the page signed out (its key revoked from Settings) says
            // nothing more: the reason already shown stays.
            if (storedKey() === key) signOut(`Signed out: ${error.message} Sign in with a valid key.`);
          }),
    [key, signOut],
  );

  if (api === null) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(newKey: string, _user: CurrentUser) => {
          storeKey(newKey);
          setNotice(null);
          setKey(newKey);
        }}
      />
    );
  }
  return (
    <Shell
      api={api}
      rules={rules}
      live={key?.startsWith("sp_live_") ?? false}
      signedInKey={key ?? ""}
      onSignOut={signOutWith}
    />
  );
}
