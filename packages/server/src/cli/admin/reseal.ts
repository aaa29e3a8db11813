import {
  type AccountRecord,
  accountBinding,
  CredentialKeyError,
  type CredentialKeyring,
  type Store,
} from "@socialpub/core";

export interface ResealReport {
  /** Sealed again under the current key. */
  resealed: number;
  /** Already under the current key. */
  current: number;
  /** Could not be opened with any key given: the account, and why (never the credentials). */
  failed: { account: string; reason: string }[];
}

/** How often one account is tried when a running server keeps replacing its credentials. */
const ATTEMPTS = 5;

/**
 * Seals every account's credentials again under the keyring's current key, opening each with whichever
 * key sealed it (the current one or one of the previous), so a previous key can then be retired.
 * Beside a running server: each write replaces only the value it read, so a session the server
 * refreshed meanwhile is read again, not overwritten. Linear in users and accounts; credentials never
 * leave this function in clear.
 */
export async function resealCredentials(store: Store, keyring: CredentialKeyring): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, current: 0, failed: [] };
  for (const user of await store.listUsers()) {
    for (const mode of ["live", "test"] as const) {
      for (const account of await store.listAccounts(user.id, mode)) {
        if (account.credentials === null) continue;
        await resealOne(store, keyring, account, report, user.email);
      }
    }
  }
  return report;
}

async function resealOne(
  store: Store,
  keyring: CredentialKeyring,
  first: AccountRecord,
  report: ResealReport,
  email: string,
): Promise<void> {
  const name = `${first.mode} ${first.platform} account of ${email}`;
  const binding = accountBinding(first.user_id, first.mode, first.platform);
  let sealed: string | null = first.credentials;
  for (let attempt = 0; attempt < ATTEMPTS && sealed !== null; attempt++) {
    if (!keyring.isStale(sealed)) {
      report.current++;
      return;
    }
    let plaintext: string;
    try {
      plaintext = keyring.open(sealed, binding);
    } catch (error) {
      if (!(error instanceof CredentialKeyError)) throw error;
      report.failed.push({ account: name, reason: error.message });
      return;
    }
    if (
      await store.setAccountCredentials(
        first.user_id,
        first.mode,
        first.platform,
        keyring.seal(plaintext, binding),
        sealed,
      )
    ) {
      report.resealed++;
      return;
    }
    // Replaced (or disconnected) since it was read: take what is there now.
    sealed = (await store.getAccount(first.user_id, first.mode, first.platform))?.credentials ?? null;
  }
  if (sealed !== null) {
    report.failed.push({
      account: name,
      reason: "its credentials kept changing while they were resealed; run the command again",
    });
  }
}
