import type { PlanName } from "../../contract/plans.ts";
import type { Effects } from "./effects.ts";

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  studio: string;
  plan: PlanName;
  created_at: number;
}

export type KeyMode = "test" | "live";

export interface ApiKeyRecord {
  id: string;
  user_id: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string;
  mode: KeyMode;
  /** What a person sees to tell keys apart, e.g. "sp_test_…Xy9z". */
  hint: string;
  created_at: number;
  revoked_at: number | null;
  /** What the account holder called it (POST /keys); absent when it was given none. */
  name?: string;
  /**
   * When the key last authenticated a call, to the minute (markKeyUsed): absent until it first does.
   * Not exact on purpose, so that a busy key writes once a minute at most, not on every call.
   */
  last_used_at?: number;
}

/** An authenticated API call: the key it was made with, that key's user, and the month's count with it. */
export interface AuthorizedCall {
  key: ApiKeyRecord;
  user: UserRecord;
  /** The user's API calls in the month, this one included. */
  calls: number;
  /**
   * The version of the user's posts as this call saw them: it changes in the same transaction as any
   * change to one of the user's posts or to its targets' metrics, whichever process made it, and never
   * returns to an earlier value. A list page built after this call is at least this fresh.
   */
  postsVersion: number;
}

/**
 * Users, their API keys, and the calls they make (the monthly usage counter, the rate limit of a
 * shared store).
 */
export interface KeyStore {
  createUser(user: UserRecord): Promise<void>;
  getUser(id: string): Promise<UserRecord | null>;
  findUserByEmail(email: string): Promise<UserRecord | null>;
  listUsers(): Promise<UserRecord[]>;
  createKey(key: ApiKeyRecord): Promise<void>;
  findKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  listKeys(userId: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; false when there is no such key or it already was. */
  revokeKey(id: string, at: number, effects?: Effects): Promise<boolean>;
  /**
   * Sets the key's `last_used_at` to `at`, unless it already holds a time that late or later (two
   * instances marking at once never move it back). The service calls it at most once a minute per key.
   */
  markKeyUsed(id: string, at: number): Promise<void>;

  // Usage
  /**
   * Authenticates and counts an API call in one step: finds the key with this hash and, when it exists,
   * is not revoked and its user exists, adds one call to that user's `month` ("YYYY-MM", UTC) and
   * answers the key, the user and the new count. Otherwise answers null and counts nothing. What it
   * answers is read when the call is counted, so a key revoked (a plan changed) before is seen at once,
   * whichever process changed it.
   */
  authorizeCall(keyHash: string, month: string): Promise<AuthorizedCall | null>;
  /** Adds one API call to the user's counter for `month` ("YYYY-MM", UTC) and returns the new count. */
  incrementApiCalls(userId: string, month: string): Promise<number>;
  getApiCalls(userId: string, month: string): Promise<number>;
  /**
   * A shared store: adds one request to the key's count for the rate-limit window starting at
   * `windowStart` (Unix ms) and answers the count including it, exact across instances. Absent where
   * the service counts in memory.
   */
  countKeyRequest?(keyId: string, windowStart: number): Promise<number>;
}
