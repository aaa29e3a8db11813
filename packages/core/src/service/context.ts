import type { Logger } from "../logger.ts";
import type { LookupHost } from "../net/public-url.ts";
import type { Publishing } from "../publishing/publishing.ts";
import type { Scheduler } from "../scheduler/scheduler.ts";
import type { ApiKeyRecord, IdempotencyAnswer, Store, UserRecord } from "../store/types.ts";
import type { Clock } from "../time/clock.ts";
import type { ListPageCache } from "./list-page-cache.ts";
import type { MediaStorage } from "./media-storage.ts";
import type { PerUserQueue } from "./per-user-queue.ts";
import type { ApiBase } from "./route.ts";

/** What handlers share: the store (the only state), the clock, the scheduler and the logger. */
export interface ServiceDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  scheduler: Scheduler;
  webhooks: { allowPrivateUrls: boolean; lookupHost: LookupHost };
  media: MediaStorage;
  /** Adapters, the credential keyring and the publishing workers (src/publishing/). */
  publishing: Publishing;
  /** Serializes a user's check-then-write steps (plan limits, slots) so concurrent requests stay exact. */
  perUser: PerUserQueue;
  /** Serialised list pages, valid while the user's posts version is unchanged. */
  listPages: ListPageCache;
  /** Absolute URLs in answers use the scheme and host a reverse proxy forwards (public-origin.ts). */
  trustProxy?: boolean;
  /** The OpenAPI document of the service's routes under `base`, as JSON text (GET /openapi.json). */
  openApi(base: ApiBase): string;
}

export interface Caller {
  user: UserRecord;
  key: ApiKeyRecord;
  /** The user's API calls this month (UTC), this request included. */
  callsThisMonth: number;
  /** The store's version of the user's posts when the call was authorised (AuthorizedCall). */
  postsVersion: number;
}

/**
 * For a request made with an Idempotency-Key: the record that keeps `status` and `body` as its answer,
 * to pass as `Effects.idempotency` to the write that makes the request's change, so the change and the
 * answer a retry replays are stored together. Undefined for a request without a key.
 */
export type KeepAnswer = (status: number, body: unknown) => IdempotencyAnswer | undefined;

/** One request as a handler sees it: validated input and the authenticated caller. */
export interface RequestContext<Body = unknown, Query = unknown> {
  deps: ServiceDeps;
  request: Request;
  url: URL;
  requestId: string;
  params: Record<string, string>;
  query: Query;
  body: Body;
  /** Present on every route that requires a key. */
  caller: Caller;
  /** Every write that makes the request's change stores this answer with it (Effects.idempotency). */
  keptAnswer: KeepAnswer;
  /** Raw bytes sent to a route that takes uploads, with their media type. */
  upload?: { bytes: Uint8Array<ArrayBuffer>; type: string };
}
