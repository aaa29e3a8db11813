import { Agent, fetch as undiciFetch } from "undici";
import { publicOnlyLookup } from "./public-lookup.ts";

/** What the worker hands the transport for one attempt. */
export interface WebhookRequestInit {
  method: "POST";
  headers: Record<string, string>;
  body: string;
  /** A 3xx is the endpoint's answer, never followed: following could lead the request anywhere. */
  redirect: "manual";
  signal: AbortSignal;
}

/**
 * Sends one delivery; `fetch`-shaped, so the global fetch, undici's, or a test double fits. It
 * resolves with the endpoint's response (any status) and rejects when no response came.
 */
export type WebhookTransport = (url: string, init: WebhookRequestInit) => Promise<Response>;

export interface OwnedTransport {
  send: WebhookTransport;
  /** Closes the connections it keeps. */
  close(): Promise<void>;
}

/**
 * The default transport: undici's fetch with a dispatcher of its own, so deliveries neither share
 * connections with the rest of the process nor follow redirects, and — unless private addresses are
 * allowed — connect only to hosts that resolve to public addresses. The dispatcher is made on first
 * use.
 */
export function createWebhookTransport(options: { allowPrivateAddresses: boolean }): OwnedTransport {
  let agent: Agent | null = null;
  return {
    send: async (url, init) => {
      agent ??= new Agent({
        connect: { timeout: 10_000, ...(!options.allowPrivateAddresses && { lookup: publicOnlyLookup }) },
        keepAliveTimeout: 4_000,
      });
      const response = await undiciFetch(url, { ...init, dispatcher: agent });
      // undici's Response is the same class the platform's fetch returns; only the types differ.
      return response as unknown as Response;
    },
    close: async () => {
      const closing = agent;
      agent = null;
      await closing?.close();
    },
  };
}
