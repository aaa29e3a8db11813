import { z } from "zod";

/** A response header, registered once under components.headers and referenced from each answer. */
function header(id: string, schema: z.ZodType, description: string) {
  return schema.meta({ header: { id, description } });
}

export const RESPONSE_HEADERS = {
  requestId: header(
    "X-Request-Id",
    z.string(),
    "The request's id: the one sent in X-Request-Id when it is sane, else a new one. Quote it when reporting a problem.",
  ),
  rateLimitPolicy: header(
    "RateLimit-Policy",
    z.string().optional(),
    'The key\'s short-term limit (IETF httpapi RateLimit draft), e.g. `"default";q=600;w=60`: 600 requests every 60 seconds. Sent when the server enforces that limit.',
  ),
  rateLimit: header(
    "RateLimit",
    z.string().optional(),
    'What is left of the key\'s short-term limit, e.g. `"default";r=599;t=42`: 599 requests in the next 42 seconds. Sent when the server enforces that limit.',
  ),
  retryAfter: header(
    "Retry-After",
    z.string(),
    "Seconds to wait before trying again: until the rate limit window ends, until the month turns when the plan's API calls are used, or (503) until the service's database is likely back.",
  ),
  wwwAuthenticate: header(
    "WWW-Authenticate",
    z.literal("Bearer"),
    "The scheme the key is sent with: Bearer.",
  ),
  idempotentReplayed: header(
    "Idempotent-Replayed",
    z.literal("true").optional(),
    "Present on an answer replayed for a repeated Idempotency-Key: the request was not run again.",
  ),
  link: header(
    "Link",
    z.string().optional(),
    'The next page, when more results exist: `</api/v1/posts?limit=20&cursor=…>; rel="next"`. The last page has none.',
  ),
} as const;
