// What a connected Bluesky account keeps (encrypted by the service): the app password, so a session
// whose refresh token has run out can be opened again without the user, and the current session.
import type { Credentials } from "@socialpub/core";

export interface BlueskyCredentials {
  /** Where the account logs in and refreshes (bsky.social, or a self-hosted PDS). */
  service: string;
  /** The account's own PDS from its DID document, where posts and blobs are written. */
  pds: string;
  /** The handle or DID the user logged in with. */
  identifier: string;
  app_password: string;
  did: string;
  handle: string;
  access_jwt: string;
  refresh_jwt: string;
}

const FIELDS = [
  "service",
  "pds",
  "identifier",
  "app_password",
  "did",
  "handle",
  "access_jwt",
  "refresh_jwt",
] as const;

export function toCredentials(value: BlueskyCredentials): Credentials {
  return { ...value };
}

/** Reads stored credentials back; a field missing means the account must be connected again. */
export function fromCredentials(credentials: Credentials): BlueskyCredentials | undefined {
  const out: Partial<Record<(typeof FIELDS)[number], string>> = {};
  for (const field of FIELDS) {
    const value = credentials[field];
    if (typeof value !== "string" || value === "") return undefined;
    out[field] = value;
  }
  return out as BlueskyCredentials;
}

/** The claims of a session token that decide what we do with it (not verified: the PDS does that). */
export function jwtClaims(jwt: string): { exp?: number; scope?: string } {
  const payload = jwt.split(".")[1];
  if (payload === undefined) return {};
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    return {
      ...(typeof claims.exp === "number" ? { exp: claims.exp } : {}),
      ...(typeof claims.scope === "string" ? { scope: claims.scope } : {}),
    };
  } catch {
    return {};
  }
}
