import { type ApiKeyRecord, type KeyMode, newApiKey, type Store } from "@socialpub/core";
import { CliError } from "../errors.ts";

export interface CreatedKey {
  record: ApiKeyRecord;
  /** The key in clear: shown once, never stored. */
  apiKey: string;
}

/**
 * A new key for the user: a test key (sandbox networks) or a live key (the user's live accounts, through
 * the real networks).
 */
export async function createKey(
  store: Store,
  userId: string,
  now = Date.now(),
  mode: KeyMode = "test",
): Promise<CreatedKey> {
  const { record, apiKey } = await newApiKey(userId, mode, now);
  await store.createKey(record);
  return { record, apiKey };
}

export async function revokeKey(store: Store, keyId: string, now = Date.now()): Promise<void> {
  if (!(await store.revokeKey(keyId, now))) {
    throw new CliError(`no active key "${keyId}" (see: socialpub-server keys list --user …).`);
  }
}
