import { randomUUID } from "node:crypto";
import { parseRetryAfter } from "@socialpub/core";

/**
 * A write sent as a client sends it to a service that may be briefly unable to reach its database:
 * with an Idempotency-Key, and again with the same key after a 503, once the Retry-After it names has
 * passed (the client's own rule, parseRetryAfter), at most `retries` times. The key makes a retry safe
 * when the first request's change was committed but its answer was a 503 (the query deadline passed
 * during the commit): the retry is answered with the kept result instead of making the change twice.
 *
 * Only 503 is retried; every other answer, and the last 503, is returned for the test to check.
 */
export async function writeRetrying503(
  server: { url: string },
  key: string,
  method: "POST" | "PATCH" | "DELETE",
  path: string,
  body: unknown,
  retries = 5,
  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field by the tests.
): Promise<{ status: number; body: any; retried: number }> {
  const idempotencyKey = randomUUID();
  for (let retried = 0; ; retried++) {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "idempotency-key": idempotencyKey,
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const answer = { status: res.status, body: text ? JSON.parse(text) : null, retried };
    if (res.status !== 503 || retried >= retries) return answer;
    const wait = parseRetryAfter(res.headers.get("retry-after"), Date.now()) ?? 1000;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
