import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Api } from "./api/client.ts";
import type { NetworkRules } from "./lib/network-rules.ts";
import type { PollClock } from "./lib/poll-clock.ts";

export interface AppContext {
  api: Api;
  rules: NetworkRules;
  /**
   * Signed in with a live key (sp_live_…): the key sees the user's live accounts and publishes for
   * real, and the sandbox's controls (account health, metrics reports) do not apply.
   */
  live: boolean;
  /** The page's one refresh schedule: live views subscribe to it through usePoll. */
  clock: PollClock;
  /** Says something to screen readers through the page's polite live region. */
  announce(message: string): void;
  /** The key this page is signed in with (to tell it apart in Settings → API keys; never shown). */
  signedInKey: string;
  /** Removes the key from the tab and shows the sign-in form with `reason`. */
  signOut(reason: string): void;
}

export const App = createContext<AppContext | null>(null);

export function useApp(): AppContext {
  const app = useContext(App);
  if (app === null) throw new Error("useApp outside the signed-in shell");
  return app;
}
