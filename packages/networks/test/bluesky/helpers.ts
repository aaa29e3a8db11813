// What the Bluesky tests share: an AccountSession that keeps what the adapter saves, a fetch that
// records every XRPC method called, and a small PNG.
import type { AccountSession, ConnectedAccount, Credentials } from "@socialpub/core";

export interface RecordedSession extends AccountSession {
  credentials: Credentials;
  saved: Credentials[];
}

/** An account session like the service's: saveCredentials replaces what the next publish reads. */
export function sessionOf(connected: ConnectedAccount, log?: string[]): RecordedSession {
  const session: RecordedSession = {
    handle: connected.handle,
    credentials: connected.credentials,
    saved: [],
    async saveCredentials(next) {
      log?.push("saveCredentials");
      session.saved.push(next);
      session.credentials = next;
    },
  };
  return session;
}

/** The XRPC method a request calls, e.g. com.atproto.server.createSession. */
export function methodOf(input: string | URL | Request): string {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  return url.pathname.replace(/^\/xrpc\//, "");
}

/** A fetch that logs each XRPC method it sends into `log`. */
export function loggingFetch(log: string[]): typeof fetch {
  return (input, init) => {
    log.push(methodOf(input));
    return fetch(input, init);
  };
}

export const countOf = (log: readonly string[], method: string) => log.filter((m) => m === method).length;
