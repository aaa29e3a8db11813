// The account's session on its PDS. An app password is exchanged once for an access token (about two
// hours) and a refresh token (about two months); after that the session is refreshed, never opened
// again per post, because createSession is limited to 30 per 5 minutes and 300 a day per account.
// Only when the refresh token itself is refused is the app password used again, once; if that is
// refused too, the user revoked it and must connect again (reauth).
//
// Every renewed session is saved through AccountSession.saveCredentials before it is used: refresh
// tokens rotate, so a crash between the refresh and the save would otherwise leave the store holding a
// token the PDS has already retired.

import { getPdsEndpoint } from "@atproto/common-web";
import type { AccountSession } from "@socialpub/core";
import { NetworkError } from "@socialpub/core";
import { type ClientOptions, clientFor } from "./client.ts";
import { type BlueskyCredentials, fromCredentials, jwtClaims, toCredentials } from "./credentials.ts";
import { classify, EXPIRED_TOKEN_ERRORS, xrpcErrorName, xrpcStatus } from "./errors.ts";

/** Refresh this long before the access token's own expiry, so a request never races it. */
const REFRESH_MARGIN_S = 120;

export interface SessionOptions extends ClientOptions {
  now: () => number;
}

/** The PDS's origin from a URL-like string, or undefined when it is not an http(s) URL. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
    if (parsed.username || parsed.password) return undefined;
    return parsed.origin;
  } catch {
    return undefined;
  }
}

interface SessionAnswer {
  accessJwt: string;
  refreshJwt: string;
  handle: string;
  did: string;
  didDoc?: unknown;
}

function sessionFrom(
  answer: SessionAnswer,
  login: Pick<BlueskyCredentials, "service" | "identifier" | "app_password">,
): BlueskyCredentials {
  const fromDoc =
    answer.didDoc && typeof answer.didDoc === "object"
      ? getPdsEndpoint(answer.didDoc as Parameters<typeof getPdsEndpoint>[0])
      : undefined;
  return {
    ...login,
    pds: (fromDoc && originOf(fromDoc)) || login.service,
    did: answer.did,
    handle: answer.handle,
    access_jwt: answer.accessJwt,
    refresh_jwt: answer.refreshJwt,
  };
}

/** Logs in with the app password (createSession). Errors are the PDS's, unclassified. */
export async function openSession(
  login: Pick<BlueskyCredentials, "service" | "identifier" | "app_password">,
  options: SessionOptions,
  signal: AbortSignal,
): Promise<BlueskyCredentials> {
  const agent = clientFor(login.service, undefined, options, signal);
  const { data } = await agent.com.atproto.server.createSession({
    identifier: login.identifier,
    password: login.app_password,
  });
  return sessionFrom(data, login);
}

/** Whether a failure says the access token is no longer taken (refresh and try once more). */
export function isExpiredSession(error: unknown): boolean {
  const status = xrpcStatus(error);
  return status === 401 || (status === 400 && EXPIRED_TOKEN_ERRORS.has(xrpcErrorName(error) ?? ""));
}

/**
 * Keeps the sessions of the accounts an adapter serves: one renewal at a time per account, and a
 * session renewed here is handed to a caller still holding the one it replaced.
 */
export class SessionKeeper {
  readonly #options: SessionOptions;
  /** Renewals under way, by the refresh token they replace. */
  readonly #renewing = new Map<string, Promise<BlueskyCredentials>>();
  /** Recent renewals, by the refresh token they replaced (bounded: oldest dropped first). */
  readonly #renewed = new Map<string, BlueskyCredentials>();

  constructor(options: SessionOptions) {
    this.#options = options;
  }

  /** The account's current session, renewed first when its access token is about to expire. */
  async current(account: AccountSession, signal: AbortSignal): Promise<BlueskyCredentials> {
    const stored = fromCredentials(account.credentials);
    if (!stored) {
      throw new NetworkError(
        "bluesky",
        "reauth",
        "The stored Bluesky session is incomplete: connect the account again with an app password",
      );
    }
    const session = this.#renewed.get(stored.refresh_jwt) ?? stored;
    const exp = jwtClaims(session.access_jwt).exp;
    if (exp === undefined || exp - REFRESH_MARGIN_S <= this.#options.now() / 1000) {
      return this.renew(account, session, signal);
    }
    return session;
  }

  /** Runs `work` with the session; when the PDS says the access token is gone, renews once and retries. */
  async run<T>(
    account: AccountSession,
    signal: AbortSignal,
    work: (session: BlueskyCredentials) => Promise<T>,
  ): Promise<T> {
    const session = await this.current(account, signal);
    try {
      return await work(session);
    } catch (error) {
      if (!isExpiredSession(error)) throw error;
    }
    const renewed = await this.renew(account, session, signal);
    try {
      return await work(renewed);
    } catch (error) {
      if (!isExpiredSession(error)) throw error;
      throw new NetworkError(
        "bluesky",
        "reauth",
        "Bluesky refused a session it had just renewed: connect the account again with a new app password",
        { status: xrpcStatus(error), cause: error },
      );
    }
  }

  /** Refreshes `session` (or waits for the refresh already under way) and saves the result. */
  renew(
    account: AccountSession,
    session: BlueskyCredentials,
    signal: AbortSignal,
  ): Promise<BlueskyCredentials> {
    const done = this.#renewed.get(session.refresh_jwt);
    if (done) return Promise.resolve(done);
    let pending = this.#renewing.get(session.refresh_jwt);
    if (!pending) {
      pending = this.#refreshOrLogIn(account, session, signal).finally(() =>
        this.#renewing.delete(session.refresh_jwt),
      );
      this.#renewing.set(session.refresh_jwt, pending);
    }
    return pending;
  }

  async #refreshOrLogIn(
    account: AccountSession,
    session: BlueskyCredentials,
    signal: AbortSignal,
  ): Promise<BlueskyCredentials> {
    let next: BlueskyCredentials;
    try {
      const agent = clientFor(session.service, session.refresh_jwt, this.#options, signal);
      const { data } = await agent.com.atproto.server.refreshSession();
      next = sessionFrom(data, session);
    } catch (error) {
      if (!isExpiredSession(error) && xrpcStatus(error) !== 400)
        throw classify(error, "refreshing the session");
      // The refresh token ran out or was revoked: the app password opens a new session, once.
      try {
        next = await openSession(session, this.#options, signal);
      } catch (loginError) {
        const status = xrpcStatus(loginError);
        if (status === 401 || status === 400 || status === 403) {
          throw new NetworkError(
            "bluesky",
            "reauth",
            `Bluesky no longer accepts this account's app password (${xrpcErrorName(loginError) ?? `HTTP ${status}`}): connect the account again with a new app password`,
            { status, cause: loginError },
          );
        }
        throw classify(loginError, "logging in again");
      }
    }
    await account.saveCredentials(toCredentials(next));
    this.#renewed.set(session.refresh_jwt, next);
    if (this.#renewed.size > 1000) this.#renewed.delete(this.#renewed.keys().next().value as string);
    return next;
  }
}
