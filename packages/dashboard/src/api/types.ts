// The API's resources as the page reads them. Types only: nothing from core is bundled.
export type {
  Account,
  AccountHealth,
  Analytics,
  CurrentUser,
  EventType,
  LengthUnit,
  NetworkId,
  NetworkRule,
  Post,
  PostStatus,
  Target,
  WebhookEndpoint,
} from "@socialpub/core";

/** One delivery attempt of an event to an endpoint (GET /webhooks/{id}/attempts). */
export interface WebhookAttempt {
  id: string;
  delivery_id: string;
  event_id: string;
  event_type: string;
  /** 1 for the first try. */
  attempt: number;
  /** Unix ms. */
  at: number;
  /** null when no HTTP answer came (timeout, refused connection). */
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  /** Unix ms of the next retry, null when delivered or given up. */
  next_attempt_at: number | null;
}

/** A page of a list and where the next one starts (from the Link header). */
export interface Page<T> {
  data: T[];
  next: string | null;
}
