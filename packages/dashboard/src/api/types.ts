// The API's resources as the page reads them. Types only: nothing from core is bundled.
export type {
  Account,
  AccountHealth,
  Analytics,
  ApiKey,
  CreatedApiKey,
  CurrentUser,
  DeliveryAttempt as WebhookAttempt,
  EventType,
  LengthUnit,
  NetworkId,
  NetworkRule,
  Post,
  PostStatus,
  ResendResult,
  Target,
  UpdatePostBody,
  WebhookEndpoint,
} from "@socialpub/core";

/** A page of a list and where the next one starts (from the Link header). */
export interface Page<T> {
  data: T[];
  next: string | null;
}
