import type { FakeAnswer } from "../../common/fake-server.ts";

/*
 * Errors as Google's APIs answer them: `{error: {code, message, errors: [{message, domain, reason}],
 * status}}`, with the reasons the YouTube Data API documents for videos.insert and videos.list.
 */

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
};

export function googleError(status: number, reason: string, domain: string, message: string): FakeAnswer {
  return {
    status,
    json: {
      error: {
        code: status,
        message,
        errors: [{ message, domain, reason }],
        ...(STATUS_NAMES[status] && { status: STATUS_NAMES[status] }),
      },
    },
  };
}

export const unauthenticated = () =>
  googleError(
    401,
    "authError",
    "global",
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
  );

export const insufficientPermissions = () =>
  googleError(403, "insufficientPermissions", "global", "Request had insufficient authentication scopes.");

export const quotaExceeded = () =>
  googleError(
    403,
    "quotaExceeded",
    "youtube.quota",
    'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
  );

export const uploadLimitExceeded = () =>
  googleError(
    400,
    "uploadLimitExceeded",
    "youtube.video",
    "The user has exceeded the number of videos they may upload.",
  );
