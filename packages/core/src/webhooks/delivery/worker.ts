import { newId } from "../../ids.ts";
import type { Logger } from "../../logger.ts";
import type { LookupHost } from "../../net/public-url.ts";
import type { CredentialKeyring } from "../../secrets/credential-keyring.ts";
import type { DeliveryJob, Store } from "../../store/types.ts";
import { type Clock, MAX_TIMER_DELAY_MS, type TimerHandle } from "../../time/clock.ts";
import { nextStep } from "./next-step.ts";
import { sendAttempt } from "./send-attempt.ts";
import { createWebhookTransport, type OwnedTransport, type WebhookTransport } from "./transport.ts";

/** What a service can tune about delivery; every field has a default. */
export interface WebhookDeliveryOptions {
  /** Sends one attempt; undici's fetch with a dispatcher of its own by default. */
  transport?: WebhookTransport;
  /** How long an attempt waits for the response headers. Default 15 000 ms. */
  timeoutMs?: number;
  /** Attempts in flight at once, across all endpoints. Default 32. */
  concurrency?: number;
  /** Attempts in flight at once to one endpoint, so a slow one cannot take every slot. Default 4. */
  perEndpointConcurrency?: number;
  /** Source of the retry jitter, [0, 1) like Math.random (the default); 0.5 means none. */
  random?: () => number;
  /** On stop, how long attempts in flight may take before they are cut. Default 10 000 ms. */
  shutdownGraceMs?: number;
  /**
   * Also look at the outbox this often, for events written by another process (an admin command on
   * the same database). Off (null) by default: events written through the service wake the worker.
   */
  recheckIntervalMs?: number | null;
}

export interface DeliveryWorkerOptions extends WebhookDeliveryOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  allowPrivateUrls: boolean;
  lookupHost: LookupHost;
  /** Opens the endpoints' sealed signing secrets (secrets/webhook-secrets.ts); none by default. */
  keyring?: CredentialKeyring | null;
}

export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;
export const DEFAULT_DELIVERY_CONCURRENCY = 32;
export const DEFAULT_PER_ENDPOINT_CONCURRENCY = 4;
/** A lease outlives the attempt it covers: the URL check (3 s at most), the timeout, and room to record. */
export const LEASE_MARGIN_MS = 30_000;
const STORE_RETRY_DELAY_MS = 5_000;

interface InFlight {
  webhookId: string;
  done: Promise<void>;
}

/**
 * Delivers the outbox. One timer, set for the earliest due delivery (store.nextDeliveryAt) and moved
 * earlier when the service writes events, instead of polling. When it fires, a run claims what is due
 * — leased in the store, so a second worker or a restart cannot send it at the same time — up to the
 * global and per-endpoint limits, sends each attempt, and claims more as attempts finish, so a slow
 * endpoint holds only its own slots. A run ends when nothing is in flight and nothing is due; the timer
 * is then set for the next delivery.
 *
 * After a crash, deliveries that were in flight stay leased until their lease ends, then fall due
 * again: an event can be delivered twice (same webhook-id, so receivers can tell), never lost.
 */
export class DeliveryWorker {
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly settings: Required<Omit<WebhookDeliveryOptions, "transport">> & {
    allowPrivateUrls: boolean;
    lookupHost: LookupHost;
  };
  private readonly injectedTransport: WebhookTransport | undefined;
  private readonly keyring: CredentialKeyring | null;
  private ownTransport: OwnedTransport | null = null;
  private started = false;
  private shutdown = new AbortController();
  private timer: TimerHandle | null = null;
  private armedFor: number | null = null;
  private running: Promise<void> | null = null;
  private poked = false;
  private wake: (() => void) | null = null;
  private readonly inFlight = new Map<string, InFlight>();
  /** notify's outbox read under way, and the one waiting to follow it (nextDeliveryForNotify). */
  private outboxRead: Promise<number | null> | null = null;
  private outboxReadNext: Promise<number | null> | null = null;

  constructor(options: DeliveryWorkerOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.logger = options.logger;
    this.injectedTransport = options.transport;
    this.keyring = options.keyring ?? null;
    this.settings = {
      timeoutMs: options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
      concurrency: atLeastOne(options.concurrency ?? DEFAULT_DELIVERY_CONCURRENCY, "concurrency"),
      perEndpointConcurrency: atLeastOne(
        options.perEndpointConcurrency ?? DEFAULT_PER_ENDPOINT_CONCURRENCY,
        "perEndpointConcurrency",
      ),
      random: options.random ?? Math.random,
      shutdownGraceMs: options.shutdownGraceMs ?? 10_000,
      recheckIntervalMs: options.recheckIntervalMs ?? null,
      allowPrivateUrls: options.allowPrivateUrls,
      lookupHost: options.lookupHost,
    };
  }

  /** Arms the timer for the next due delivery (those a stop or crash left leased come back when due). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.shutdown = new AbortController();
    await this.rearm();
  }

  /**
   * Stops claiming, then waits for attempts in flight — up to the grace period, after which they are
   * cut and left to their lease (sent again after a restart).
   */
  async stop(): Promise<void> {
    this.started = false;
    this.disarm();
    this.poke();
    await this.running;
    const pending = [...this.inFlight.values()].map((f) => f.done);
    if (pending.length > 0 && !(await settledWithin(pending, this.settings.shutdownGraceMs))) {
      this.shutdown.abort();
      await Promise.allSettled(pending);
    }
    await this.ownTransport?.close();
    this.ownTransport = null;
  }

  /**
   * Tells the worker events were written: when they are owed to an endpoint, the timer moves to their
   * due time (now), so delivery starts at once. Resolves once the timer is set.
   */
  async notify(): Promise<void> {
    if (!this.started) return;
    if (!this.running) {
      let next: number | null;
      try {
        next = await this.nextDeliveryForNotify();
      } catch (err) {
        // The write that called this succeeded; its events go out when the store answers again.
        this.logger.error({ err }, "reading the webhook outbox failed; retrying");
        next = this.clock.now() + STORE_RETRY_DELAY_MS;
      }
      if (!this.running) {
        if (next !== null && (this.armedFor === null || next < this.armedFor)) this.arm(next);
        return;
      }
    }
    // A run in progress claims them before it ends.
    this.poke();
  }

  /**
   * store.nextDeliveryAt for notify. Every write with events notifies, and at the top of the hour
   * hundreds of posts' outcomes are written within milliseconds: a call made while a read is under way
   * shares the one read after it (which starts after the call, so it sees the call's write), instead of
   * each making its own. At most one read runs and one waits.
   */
  private nextDeliveryForNotify(): Promise<number | null> {
    if (this.outboxReadNext) return this.outboxReadNext;
    if (!this.outboxRead) return this.readOutbox();
    const next = this.outboxRead
      .catch(() => {})
      .then(() => {
        this.outboxReadNext = null;
        return this.readOutbox();
      });
    this.outboxReadNext = next;
    return next;
  }

  private readOutbox(): Promise<number | null> {
    const read = this.store.nextDeliveryAt().finally(() => {
      if (this.outboxRead === read) this.outboxRead = null;
    });
    this.outboxRead = read;
    return read;
  }

  /** Delivers what is due now; resolves when nothing is left in flight (joins a run in progress). */
  runDue(): Promise<void> {
    if (this.running) {
      this.poke();
      return this.running;
    }
    this.running = this.run().finally(() => {
      this.running = null;
      // Events written in the instant between the run's last look and its end.
      if (this.poked && this.started) this.arm(this.clock.now());
    });
    return this.running;
  }

  /** When the timer fires next (diagnostics and tests), or null. */
  get nextRunAt(): number | null {
    return this.armedFor;
  }

  /** Attempts in flight now. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  private async run(): Promise<void> {
    try {
      for (;;) {
        if (!this.started) return;
        this.poked = false;
        await this.claimAndSend();
        if (this.inFlight.size > 0) {
          await this.armForWaiting();
          if (!this.poked) await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = null;
          continue;
        }
        await this.rearm();
        if (!this.poked) return;
      }
    } catch (err) {
      this.logger.error({ err }, "webhook delivery run failed; retrying");
      if (this.started) this.arm(this.clock.now() + STORE_RETRY_DELAY_MS);
    }
  }

  /** Claims due deliveries while there is room, and starts an attempt for each. */
  private async claimAndSend(): Promise<void> {
    const { concurrency, perEndpointConcurrency, timeoutMs } = this.settings;
    for (;;) {
      const room = concurrency - this.inFlight.size;
      if (room <= 0 || !this.started) return;
      const now = this.clock.now();
      const jobs = await this.store.claimDueDeliveries(now, now + timeoutMs + LEASE_MARGIN_MS, room, {
        perWebhook: perEndpointConcurrency,
        busy: this.busyEndpoints(),
      });
      for (const job of jobs) this.launch(job);
      if (jobs.length < room) return;
    }
  }

  private launch(job: DeliveryJob): void {
    const done = this.deliver(job)
      .catch((err) => {
        // The store failed to record the attempt: the lease brings the delivery back.
        this.logger.error(
          { err, webhook_id: job.webhook.id, event_id: job.event.id, delivery_id: job.delivery.id },
          "recording a webhook attempt failed; it will be attempted again when its lease ends",
        );
      })
      .finally(() => {
        this.inFlight.delete(job.delivery.id);
        this.afterAttempt();
      });
    this.inFlight.set(job.delivery.id, { webhookId: job.webhook.id, done });
  }

  private async deliver(job: DeliveryJob): Promise<void> {
    const attempt = job.delivery.attempts + 1;
    const at = this.clock.now();
    const result = await sendAttempt(job, {
      clock: this.clock,
      transport: this.transport(),
      timeoutMs: this.settings.timeoutMs,
      allowPrivateUrls: this.settings.allowPrivateUrls,
      lookupHost: this.settings.lookupHost,
      shutdown: this.shutdown.signal,
      keyring: this.keyring,
    });
    const fields = {
      webhook_id: job.webhook.id,
      event_id: job.event.id,
      delivery_id: job.delivery.id,
      attempt,
    };
    if (result.kind === "interrupted") {
      this.logger.info(fields, "webhook attempt cut by shutdown; it is sent again when its lease ends");
      return;
    }
    const status = result.kind === "response" ? result.status : null;
    const next = nextStep(result, attempt, this.clock.now(), this.settings.random);
    await this.store.recordAttempt(
      {
        id: newId("att", at),
        delivery_id: job.delivery.id,
        webhook_id: job.webhook.id,
        event_id: job.event.id,
        attempt,
        at,
        response_status: status,
        duration_ms: result.durationMs,
        error: next.error,
      },
      { state: next.state, next_attempt_at: next.next_attempt_at },
    );
    if (next.disable) await this.store.setWebhookStatus(job.webhook.id, "disabled");
    const logged = {
      ...fields,
      status,
      duration_ms: result.durationMs,
      state: next.state,
      next_attempt_at: next.next_attempt_at,
      ...(next.error !== null && { error: next.error }),
    };
    if (next.state === "delivered") this.logger.info(logged, "webhook delivered");
    else if (next.disable) this.logger.warn(logged, "webhook endpoint answered 410 Gone; disabled");
    else this.logger.warn(logged, "webhook attempt failed");
  }

  /** An attempt ended: a run claims into the freed slot (one is started if none is going). */
  private afterAttempt(): void {
    if (this.running) this.poke();
    else if (this.started) void this.runDue();
  }

  private transport(): WebhookTransport {
    if (this.injectedTransport) return this.injectedTransport;
    this.ownTransport ??= createWebhookTransport({
      allowPrivateAddresses: this.settings.allowPrivateUrls,
    });
    return this.ownTransport.send;
  }

  private busyEndpoints(): Record<string, number> {
    const busy: Record<string, number> = {};
    for (const { webhookId } of this.inFlight.values()) busy[webhookId] = (busy[webhookId] ?? 0) + 1;
    return busy;
  }

  /**
   * While attempts are in flight: a timer for the next delivery that could start — not one of an
   * endpoint with no room (an attempt ending wakes the run for those) — so a full endpoint cannot delay
   * another endpoint's retry.
   */
  private async armForWaiting(): Promise<void> {
    this.disarm();
    if (this.inFlight.size >= this.settings.concurrency) return;
    const full = Object.entries(this.busyEndpoints())
      .filter(([, count]) => count >= this.settings.perEndpointConcurrency)
      .map(([id]) => id);
    const next = await this.store.nextDeliveryAt({ excludeWebhookIds: full });
    if (next !== null) this.arm(next);
  }

  /** Re-reads the next due time from the store and sets the timer for it. */
  private async rearm(): Promise<void> {
    if (!this.started) return;
    const next = await this.store.nextDeliveryAt();
    const { recheckIntervalMs } = this.settings;
    const recheck = recheckIntervalMs === null ? null : this.clock.now() + recheckIntervalMs;
    const at = next === null ? recheck : recheck === null ? next : Math.min(next, recheck);
    this.disarm();
    if (at !== null) this.arm(at);
  }

  private poke(): void {
    this.poked = true;
    this.wake?.();
  }

  private arm(at: number): void {
    if (!this.started) return;
    this.disarm();
    const delay = Math.min(Math.max(0, at - this.clock.now()), MAX_TIMER_DELAY_MS);
    this.armedFor = at;
    this.timer = this.clock.setTimeout(() => this.onTimer(at), delay);
  }

  private disarm(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = null;
  }

  private onTimer(at: number): Promise<void> | undefined {
    this.timer = null;
    this.armedFor = null;
    if (this.clock.now() < at) {
      this.arm(at);
      return undefined;
    }
    return this.runDue();
  }
}

function atLeastOne(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a whole number, 1 or more.`);
  return value;
}

/** True when every promise settled within `ms` (real time: attempts take real time whatever the clock). */
async function settledWithin(promises: Promise<unknown>[], ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([Promise.allSettled(promises).then(() => true as const), expired]);
  } finally {
    clearTimeout(timer);
  }
}
