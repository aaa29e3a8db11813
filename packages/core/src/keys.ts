import { hash } from "node:crypto";
import { newId } from "./ids.ts";
import type { ApiKeyRecord, KeyMode } from "./store/types.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 40;

/** `sp_test_` or `sp_live_` and at least 32 base62 characters (decisions: Keys and accounts). */
export const API_KEY_PATTERN = /^sp_(test|live)_[0-9A-Za-z]{32,}$/;

export function isWellFormedKey(value: string): boolean {
  return value.length <= 256 && API_KEY_PATTERN.test(value);
}

export function keyMode(key: string): KeyMode {
  return key.startsWith("sp_live_") ? "live" : "test";
}

/** A new key: the prefix for its mode and 40 uniformly random base62 characters. */
export function generateApiKey(mode: KeyMode = "test"): string {
  let out = "";
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  while (out.length < RANDOM_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      if (byte < 248 && out.length < RANDOM_LENGTH) out += BASE62[byte % 62];
    }
  }
  return `sp_${mode}_${out}`;
}

/**
 * SHA-256 of the whole key, hex: what the store keeps and looks keys up by. Every authenticated request
 * hashes its key, so this hashes in place: Web Crypto's digest goes through the thread pool and costs
 * tens of microseconds for a few dozen bytes.
 */
export async function hashApiKey(key: string): Promise<string> {
  return hash("sha256", key, "hex");
}

/** Enough of a key for a person to tell keys apart, never enough to use it. */
export function keyHint(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}

/**
 * A new key for a user and the record the store keeps of it (its hash, never the key). The key in clear
 * is handed back once, to show to whoever asked for it (POST /keys, the CLI's `keys create`).
 */
export async function newApiKey(
  userId: string,
  mode: KeyMode,
  now: number,
  name?: string,
): Promise<{ record: ApiKeyRecord; apiKey: string }> {
  const apiKey = generateApiKey(mode);
  const record: ApiKeyRecord = {
    id: newId("key", now),
    user_id: userId,
    hash: await hashApiKey(apiKey),
    mode,
    hint: keyHint(apiKey),
    created_at: now,
    revoked_at: null,
    ...(name !== undefined && { name }),
  };
  return { record, apiKey };
}

/** A webhook signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function generateWebhookSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}
