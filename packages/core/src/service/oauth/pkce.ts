import { createHash, randomBytes } from "node:crypto";

/*
 * The random values of an OAuth connect. The state is the callback's only credential (the network's
 * redirect carries no API key), so it is 256 random bits and the store keeps only its SHA-256. The PKCE
 * verifier (RFC 7636) is 43 characters of base64url, 256 bits, and its challenge the S256 of it.
 */

/** 32 random bytes as base64url (43 characters): a state or a PKCE code verifier. */
export const randomToken = (): string => randomBytes(32).toString("base64url");

/** How the store names a state: its SHA-256 in hex. */
export const stateHash = (state: string): string => createHash("sha256").update(state).digest("hex");

/** The S256 code challenge of a verifier: base64url(SHA-256(verifier)). */
export const codeChallenge = (verifier: string): string =>
  createHash("sha256").update(verifier).digest("base64url");

/** The associated data a pending connect's secret is sealed with, so it opens for that state only. */
export const stateBinding = (hash: string): string => `oauth-state:${hash}`;
