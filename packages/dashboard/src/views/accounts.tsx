import { useApp } from "../context.ts";
import { LiveAccountsView } from "./live-accounts.tsx";
import { SandboxView } from "./sandbox.tsx";

/** The key's accounts: the sandbox's, with its controls, for a test key; the real ones for a live key. */
export function AccountsView() {
  const { live } = useApp();
  return live ? <LiveAccountsView /> : <SandboxView />;
}
