// @socialpub/core/service: the reference service and what it is built from (stores, scheduler,
// network adapters, delivery worker, OpenAPI document). Loads hono, zod-openapi and file-type; a
// program that only calls a service imports @socialpub/core/client instead.

export { newId } from "../ids.ts";
export { API_KEY_PATTERN, generateApiKey, hashApiKey, keyHint, newApiKey } from "../keys.ts";
export { consoleLogger, type Logger, silentLogger } from "../logger.ts";
export type { LookupHost } from "../net/public-url.ts";
export {
  type AccountSession,
  type ConnectContext,
  type ConnectedAccount,
  type Credentials,
  type FailureKind,
  type LostAttempt,
  type MediaFile,
  type NetworkAdapter,
  type NetworkAdapters,
  NetworkError,
  type OAuthGrant,
  type OAuthSteps,
  type PacingRule,
  type PartInput,
  type PollInput,
  type PublishedPost,
  type PublishInput,
  type PublishStep,
} from "../networks/adapter.ts";
export { publishKey } from "../networks/record-key.ts";
export { sandboxAdapter } from "../networks/sandbox.ts";
export { buildOpenApiDocument } from "../openapi/document.ts";
export { splitText } from "../posting/split.ts";
export {
  type AccountSpec,
  type ProvisionedUser,
  type ProvisionOptions,
  provisionUser,
} from "../provision.ts";
export type { PublishingOptions, PublishKeyFor } from "../publishing/publishing.ts";
export {
  type PartToSend,
  publishThread,
  type SentPart,
  sentParts,
  THREAD_KEYS,
  type ThreadSteps,
} from "../publishing/thread.ts";
export { PUBLISH_CONCURRENCY, Scheduler } from "../scheduler/scheduler.ts";
export {
  accountBinding,
  CredentialKeyError,
  CredentialKeyring,
  keyIdOf,
  parseSecretKey,
} from "../secrets/credential-keyring.ts";
export {
  isPlainWebhookSecret,
  openWebhookSecret,
  sealWebhookSecrets,
  type WebhookSealReport,
  webhookBinding,
} from "../secrets/webhook-secrets.ts";
export { accountKey, CLAIM_LOOKAHEAD, onePerAccount } from "../store/claim-per-account.ts";
export { DeliveryClaim } from "../store/delivery-claim.ts";
export { IdempotencyKeyTaken } from "../store/idempotency-key-taken.ts";
export { MemoryStore } from "../store/memory.ts";
export { NOT_ATTEMPTED, settledPost } from "../store/settle.ts";
export type * from "../store/types.ts";
export { StoreUnavailableError } from "../store/unavailable.ts";
export { adaptText, truncate } from "../text/adapt.ts";
export { measure } from "../text/measure.ts";
export { withoutTrailingSlashes } from "../text/trailing-slashes.ts";
export { type Clock, systemClock, type TimerHandle } from "../time/clock.ts";
export { parseScheduleAt, parseScheduleTime, SCHEDULE_SKEW_MS } from "../time/schedule-at.ts";
export { MAX_ATTEMPTS, RETRY_SCHEDULE_MS } from "../webhooks/delivery/schedule.ts";
export type { WebhookRequestInit, WebhookTransport } from "../webhooks/delivery/transport.ts";
export { DeliveryWorker, type WebhookDeliveryOptions } from "../webhooks/delivery/worker.ts";
export { accountEvent } from "./account-event.ts";
export { createService, type Service, type ServiceOptions } from "./create-service.ts";
export { HttpError } from "./http-error.ts";
export type { RateLimitOptions } from "./limits.ts";
export { type MediaStorage, MemoryMediaStorage } from "./media-storage.ts";
export type { OAuthConnectStart } from "./oauth/start-connect.ts";
export { requestIdFromHeader } from "./request-id.ts";
export { bodyTextOf, headerOf, withHeaders } from "./responses.ts";
