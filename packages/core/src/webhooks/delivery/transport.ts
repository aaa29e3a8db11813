import { Agent, request } from "undici";
import { publicOnlyLookup } from "../../net/public-lookup.ts";

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
 * The default transport: undici's `request` with a dispatcher of its own, so deliveries neither share
 * connections with the rest of the process nor follow redirects (`request` never does), and — unless
 * private addresses are allowed — connect only to hosts that resolve to public addresses. The
 * dispatcher is made on first use. `request` rather than `fetch`: the answer's status and headers are
 * all a delivery reads, and fetch's extra layers cost more than the rest of an attempt. It resolves and
 * rejects as fetch does: the endpoint's response without its body, or a TypeError whose cause says why
 * no response came.
 */
export function createWebhookTransport(options: { allowPrivateAddresses: boolean }): OwnedTransport {
  let agent: Agent | null = null;
  return {
    send: async (url, init) => {
      agent ??= new Agent({
        connect: { timeout: 10_000, ...(!options.allowPrivateAddresses && { lookup: publicOnlyLookup }) },
        keepAliveTimeout: 4_000,
      });
      let answer: Awaited<ReturnType<typeof request>>;
      try {
        answer = await request(url, {
          method: init.method,
          headers: init.headers,
          body: init.body,
          signal: init.signal,
          dispatcher: agent,
        });
      } catch (err) {
        throw new TypeError("fetch failed", { cause: err });
      }
      // The answer's body is not used; reading it to the end frees the connection for the next one.
      await answer.body.dump().catch(() => {});
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        for (const one of Array.isArray(value) ? value : [value ?? ""]) headers.append(name, one);
      }
      return new Response(null, { status: answer.statusCode, headers });
    },
    close: async () => {
      const closing = agent;
      agent = null;
      await closing?.close();
    },
  };
}
