import { type ApiKeyRecord, generateApiKey, hashApiKey, keyHint, newId, type Store } from "@socialpub/core";
import { CliError } from "../errors.ts";

export interface CreatedKey {
  record: ApiKeyRecord;
  /** The key in clear: shown once, never stored. */
  apiKey: string;
}

/**
 * A new test key for the user. The reference service publishes to sandbox networks only, so it issues
 * test keys; live keys wait for real network adapters.
 */
export async function createKey(store: Store, userId: string, now = Date.now()): Promise<CreatedKey> {
  const apiKey = generateApiKey("test");
  const record: ApiKeyRecord = {
    id: newId("key", now),
    user_id: userId,
    hash: await hashApiKey(apiKey),
    mode: "test",
    hint: keyHint(apiKey),
    created_at: now,
    revoked_at: null,
  };
  await store.createKey(record);
  return { record, apiKey };
}

export async function revokeKey(store: Store, keyId: string, now = Date.now()): Promise<void> {
  if (!(await store.revokeKey(keyId, now))) {
    throw new CliError(`no active key "${keyId}" (see: socialpub-server keys list --user …).`);
  }
}
