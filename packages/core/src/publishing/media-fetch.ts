import { Agent, fetch as undiciFetch } from "undici";
import { publicOnlyLookup } from "../net/public-lookup.ts";

/** Fetches one media URL hop (redirects are not followed): fetch-shaped, so a test can route it. */
export type MediaFetch = (url: string, init: { signal: AbortSignal }) => Promise<Response>;

export interface OwnedMediaFetch {
  fetch: MediaFetch;
  /** Closes the connections it keeps. */
  close(): Promise<void>;
}

/**
 * The default media fetcher: redirects are answered, not followed (each hop's URL is checked by the
 * caller), over a dispatcher of its own that — unless private addresses are allowed — connects only to
 * hosts that resolve to public addresses, so a name that resolved to a public address for the URL check
 * cannot resolve to an internal one for the connection (DNS rebinding), as webhook deliveries do.
 */
export function createMediaFetch(options: { allowPrivateAddresses: boolean }): OwnedMediaFetch {
  let agent: Agent | null = null;
  return {
    fetch: async (url, init) => {
      agent ??= new Agent({
        connect: { timeout: 10_000, ...(!options.allowPrivateAddresses && { lookup: publicOnlyLookup }) },
        keepAliveTimeout: 4_000,
      });
      const response = await undiciFetch(url, { redirect: "manual", signal: init.signal, dispatcher: agent });
      return response as unknown as Response;
    },
    close: async () => {
      const closing = agent;
      agent = null;
      await closing?.close();
    },
  };
}
