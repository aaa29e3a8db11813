import {
  AuthenticationError,
  BadRequestError,
  CONTRACT_MESSAGES,
  ConflictError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
  SocialPublishError,
  TimeoutError,
  UnprocessableEntityError,
} from "@socialpub/core";

export interface FailureContext {
  baseUrl?: string;
  /** Direct mode: the service ran inside the job, so its answers are the networks', not a server's. */
  direct?: boolean;
  idempotencyKey?: string;
  /** The networks the post was sent to. */
  platforms?: readonly string[];
}

/**
 * A failure as the step's error message: what went wrong and what to change. Service errors carry the
 * service's own message and request id; the API key never appears (the client keeps it out of errors).
 */
export function explainFailure(error: unknown, context: FailureContext = {}): string {
  if (!(error instanceof SocialPublishError)) return error instanceof Error ? error.message : String(error);
  if (context.direct) return `Could not post (${error.status}): ${error.message} Nothing was posted.`;
  const requestId = error.requestId ? ` (request id ${error.requestId})` : "";
  const at = context.baseUrl ?? "the service";

  if (error instanceof AuthenticationError) {
    return `The service refused the API key (401: ${error.message}). Check the \`api-key\` secret: it must hold a current key of this service, passed as \`api-key: \${{ secrets.YOUR_SECRET }}\`.${requestId}`;
  }
  if (error instanceof BadRequestError) {
    const hint =
      error.message === CONTRACT_MESSAGES.noConnectedNetwork && context.platforms
        ? ` None of ${context.platforms.join(", ")} is connected to the account: connect one in the service or change \`platforms\`.`
        : "";
    return `The service refused the post (400): ${error.message}${hint} Nothing was posted.${retryNote(context)}${requestId}`;
  }
  if (error instanceof UnprocessableEntityError) {
    // The service keeps only answers that made a change: a 422 means an earlier request under this key
    // was accepted (posted, scheduled or kept as a draft) with other content.
    return `An earlier run already sent a post under the idempotency key ${context.idempotencyKey ?? "of this run"} with a different request (422: ${error.message}): other text, networks, media or schedule. This run posted nothing. Check the service's posts for that one; to post the release again on purpose, set \`idempotency-key\` to a new value.${requestId}`;
  }
  if (error instanceof ConflictError) {
    return `Another run is announcing this release right now under the same idempotency key (409: ${error.message}). Re-run this job when it has finished: it will replay that post rather than post again.${requestId}`;
  }
  if (error instanceof RateLimitError) {
    const wait = error.retryAfter === null ? "" : ` The service asks to wait ${error.retryAfter} s.`;
    return `The service is limiting requests (429): ${error.message}${wait} Re-run the job later; the idempotency key makes a re-run safe.${requestId}`;
  }
  if (error instanceof NotFoundError) {
    return `The service at ${at} answered 404 to ${error.method} ${error.path}: ${error.message} Check that \`base-url\` ends with the API version, e.g. https://host/api/v1.${requestId}`;
  }
  if (error instanceof ServerError) {
    return `The service failed (${error.status}): ${error.message} Re-run the job later; the idempotency key makes a re-run safe.${requestId}`;
  }
  if (error instanceof ConnectionError || error instanceof TimeoutError) {
    return `Could not reach the service at ${at}: ${error.message} Check \`base-url\` and that the service is reachable from the runner.`;
  }
  return `${error.message}${requestId}`;
}

/**
 * The service keeps no refused answer under an idempotency key, so a re-run with the input fixed (or
 * the network connected) posts under the same key.
 */
function retryNote(context: FailureContext): string {
  if (context.idempotencyKey === undefined) return "";
  return ` The service keeps no refused answer: after fixing the cause, re-run the job; it posts under the same idempotency key (${context.idempotencyKey}).`;
}
