import type { AccountStore } from "./areas/accounts.ts";
import type { AnalyticsStore } from "./areas/analytics.ts";
import type { IdempotencyStore } from "./areas/idempotency.ts";
import type { KeyStore } from "./areas/keys.ts";
import type { LifecycleStore } from "./areas/lifecycle.ts";
import type { MediaStore } from "./areas/media.ts";
import type { OutboxStore } from "./areas/outbox.ts";
import type { PostStore } from "./areas/posts.ts";
import type { TargetStore } from "./areas/targets.ts";
import type { WebhookStore } from "./areas/webhooks.ts";

export type { AccountPatch, AccountRecord, OAuthStateRecord } from "./areas/accounts.ts";
export type { PlatformTotals } from "./areas/analytics.ts";
export type { Effects } from "./areas/effects.ts";
export type { IdempotencyAnswer, IdempotencyRecord } from "./areas/idempotency.ts";
export type { ApiKeyRecord, AuthorizedCall, KeyMode, UserRecord } from "./areas/keys.ts";
export type { StoreWakeups } from "./areas/lifecycle.ts";
export type { MediaRecord } from "./areas/media.ts";
export type {
  AttemptLogEntry,
  AttemptRecord,
  ClaimOptions,
  DeliveryJob,
  DeliveryRecord,
  DeliveryState,
  ListAttemptsOptions,
  NewEvent,
  NewEventBase,
  NewEventOf,
} from "./areas/outbox.ts";
export type {
  ListPostsOptions,
  MediaRef,
  PartContent,
  PostPatch,
  PostRecord,
  RichContent,
} from "./areas/posts.ts";
export type {
  ClaimedTarget,
  FirstCommentRecord,
  PartRecord,
  RecentAttempt,
  TargetMetrics,
  TargetRecord,
} from "./areas/targets.ts";
export type { WebhookPatch, WebhookRecord, WebhookStatus } from "./areas/webhooks.ts";

/*
 * The persistence seam. The service holds the rules; a store only keeps records and makes a few steps
 * atomic. Every method is async so that a networked store (Postgres) fits the same interface as the
 * in-memory and SQLite ones.
 *
 * Atomicity: each method is one transaction. Methods that change state take `Effects`, whose events are
 * written in that same transaction (the webhook outbox), so a crash can neither lose an event nor
 * invent one for a change that did not happen. The same holds for the answer of a request made with an
 * Idempotency-Key: it is stored with the change it answers, so a retry after a crash replays the
 * change rather than making it twice.
 *
 * Times are Unix milliseconds unless a field says otherwise.
 */

/**
 * A store: every area's methods together. Each area (areas/*.ts) keeps its own records and the methods
 * over them, so a store can be read, and written, an area at a time.
 */
export type Store = LifecycleStore &
  KeyStore &
  AccountStore &
  PostStore &
  TargetStore &
  AnalyticsStore &
  WebhookStore &
  OutboxStore &
  IdempotencyStore &
  MediaStore;
