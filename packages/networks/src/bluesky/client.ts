// The XRPC client for one PDS, built on @atproto/api's Agent with a fetch handler of our own: the
// handler adds the session's bearer token, bounds every request with a timeout, and goes through an
// injectable fetch (the tests count logins and lose answers with it). The Agent brings the lexicon
// types, request encoding and XRPC error decoding; the session itself is ours (session.ts), because
// the service must store a refreshed session before it is used, which @atproto/api's AtpAgent does not
// wait for.
import { Agent } from "@atproto/api";

export type Fetch = typeof globalThis.fetch;

export interface ClientOptions {
  fetch: Fetch;
  /** How long one request may take before it is abandoned. */
  timeoutMs: number;
}

/** An Agent that talks to `origin`, authenticated with `token` when given. */
export function clientFor(
  origin: string,
  token: string | undefined,
  options: ClientOptions,
  signal?: AbortSignal,
): Agent {
  return new Agent(async (path, init) => {
    const headers = new Headers(init.headers);
    if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
    const signals = [AbortSignal.timeout(options.timeoutMs)];
    if (init.signal) signals.push(init.signal);
    if (signal) signals.push(signal);
    return options.fetch(new URL(path, origin), { ...init, headers, signal: AbortSignal.any(signals) });
  });
}
