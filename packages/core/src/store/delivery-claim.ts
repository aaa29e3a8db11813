import type { ClaimOptions } from "./types.ts";

/**
 * The room one claim of due deliveries has: at most `limit` deliveries in all, and per endpoint at
 * most `perWebhook` in flight, counting those the caller already has (`busy`). Every store walks its
 * due deliveries in order and asks this whether each fits, so they all choose the same batch.
 */
export class DeliveryClaim {
  readonly #limit: number;
  readonly #perWebhook: number;
  readonly #inFlight: Map<string, number>;
  #taken = 0;

  constructor(limit: number, options: ClaimOptions = {}) {
    this.#limit = limit;
    this.#perWebhook = options.perWebhook ?? Number.POSITIVE_INFINITY;
    this.#inFlight = new Map(Object.entries(options.busy ?? {}));
  }

  /** Whether the batch holds `limit` deliveries: nothing more is taken. */
  get full(): boolean {
    return this.#taken >= this.#limit;
  }

  /** Takes a delivery to `webhookId` when the batch and that endpoint have room; false when not. */
  take(webhookId: string): boolean {
    const count = this.#inFlight.get(webhookId) ?? 0;
    if (this.full || count >= this.#perWebhook) return false;
    this.#inFlight.set(webhookId, count + 1);
    this.#taken++;
    return true;
  }
}
