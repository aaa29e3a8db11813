export type { IncomingWebhookHeaders, WebhookHeaders } from "../webhooks/headers.ts";
export { type SignWebhookOptions, signWebhook } from "../webhooks/sign.ts";
export { WebhookVerificationError, type WebhookVerificationReason } from "../webhooks/verification-error.ts";
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
  verifyWebhook,
} from "../webhooks/verify.ts";
export {
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUT_MS,
  SocialPublishClient,
  type SocialPublishClientOptions,
} from "./client.ts";
export * from "./errors.ts";
export type { Page } from "./pagination.ts";
export type { ApiRequest, ApiResponse, HttpMethod, RequestOptions } from "./requester.ts";
export type { ConnectAccountInput } from "./resources/accounts.ts";
export type { CreateKeyInput } from "./resources/keys.ts";
export type { MediaBytesInput, MediaUrlInput } from "./resources/media.ts";
export type {
  CreatePostInput,
  ListPostsParams,
  PlatformId,
  PublishDraftInput,
  ScheduleInput,
  UpdatePostInput,
} from "./resources/posts.ts";
export type { WaitForOptions } from "./resources/wait-for-status.ts";
export type { CreateWebhookInput, TestWebhookInput } from "./resources/webhooks.ts";
export {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  decideRetry,
  isRetryableStatus,
  parseRetryAfter,
  type RetryPolicy,
} from "./retry-policy.ts";
export type { FetchLike } from "./transport.ts";
export { CLIENT_VERSION } from "./version.ts";
