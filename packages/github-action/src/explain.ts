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
  const requestId = error.requestId ? ` (request id ${error.requestId})` : "";
  const replayNote =
    error.headers.get("idempotent-replayed") === "true"
      ? ` This is the stored answer to an earlier run with the same idempotency key (${context.idempotencyKey ?? "see the summary"}); to try again after fixing the cause, set a new \`idempotency-key\`.`
      : "";
  const at = context.baseUrl ?? "the service";

  if (error instanceof AuthenticationError) {
    return `The service refused the API key (401: ${error.message}). Check the \`api-key\` secret: it must hold a current key of this service, passed as \`api-key: \${{ secrets.YOUR_SECRET }}\`.${requestId}`;
  }
  if (error instanceof BadRequestError) {
    const hint =
      error.message === CONTRACT_MESSAGES.noConnectedNetwork && context.platforms
        ? ` None of ${context.platforms.join(", ")} is connected to the account: connect one in the service or change \`platforms\`.`
        : "";
    return `The service refused the post (400): ${error.message}${hint} Nothing was posted.${replayNote || storedNote(context)}${requestId}`;
  }
  if (error instanceof UnprocessableEntityError) {
    // The earlier request under this key may have been refused (a 400 is stored too), so this cannot
    // claim that the release was announced.
    return `An earlier run used the idempotency key ${context.idempotencyKey ?? "of this run"} for a different request (422: ${error.message}): other text, networks, media or schedule, maybe one the service refused. This run posted nothing. To post the release now, set \`idempotency-key\` to a new value; check the service's posts first if an earlier run may already have announced it.${requestId}`;
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
  return `${error.message}${replayNote}${requestId}`;
}

/**
 * The service keeps a refused post's answer under its idempotency key and gives it to every later
 * request with that key (a changed request gets 422), so fixing the input alone is not enough.
 */
function storedNote(context: FailureContext): string {
  if (context.idempotencyKey === undefined) return "";
  return ` The service keeps this answer under the idempotency key ${context.idempotencyKey}: a re-run with that key gets it again, or a 422 once the input changed. After fixing the cause, set \`idempotency-key\` to a new value and re-run.`;
}
