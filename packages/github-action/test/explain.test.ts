import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  type ErrorDetails,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnprocessableEntityError,
} from "@socialpub/core";
import { describe, expect, it } from "vitest";
import { explainFailure } from "../src/explain.ts";

const details = (status: number | null, headers: Record<string, string> = {}): ErrorDetails => ({
  status,
  requestId: "req_123",
  headers: new Headers(headers),
  body: null,
  method: "POST",
  path: "/posts",
});

const context = {
  baseUrl: "https://api.test/api/v1",
  idempotencyKey: "github-release/octo/app/1/x",
  platforms: ["x"],
};

describe("failures explain the fix", () => {
  it("401: check the api-key secret", () => {
    const message = explainFailure(
      new AuthenticationError("Invalid or revoked API key.", details(401)),
      context,
    );
    expect(message).toMatch(
      /^The service refused the API key \(401: Invalid or revoked API key\.\)\. Check the `api-key` secret/,
    );
    expect(message).toContain("request id req_123");
  });

  it("400: the service's own message, and that a re-run after fixing the cause posts under the same key", () => {
    const message = explainFailure(new BadRequestError("schedule_at is in the past.", details(400)), context);
    expect(message).toMatch(
      /^The service refused the post \(400\): schedule_at is in the past\. Nothing was posted\. /,
    );
    expect(message).toContain(
      "The service keeps no refused answer: after fixing the cause, re-run the job; it posts under the same idempotency key (github-release/octo/app/1/x).",
    );
    expect(message).not.toMatch(/new value/);
    expect(message).toMatch(/\(request id req_123\)$/);
  });

  it("400 with no connected network names the networks asked for", () => {
    const message = explainFailure(
      new BadRequestError("Select at least one connected network.", details(400)),
      context,
    );
    expect(message).toContain("None of x is connected to the account");
  });

  it("422: an earlier run already sent a different post under the key; a new key posts again", () => {
    const message = explainFailure(
      new UnprocessableEntityError("Idempotency-Key reused.", details(422)),
      context,
    );
    expect(message).toMatch(
      /^An earlier run already sent a post under the idempotency key github-release\/octo\/app\/1\/x with a different request \(422: /,
    );
    expect(message).toContain("Check the service's posts for that one");
    expect(message).toContain("set `idempotency-key` to a new value");
  });

  it("409, 429 and 5xx say to re-run later, which the idempotency key makes safe", () => {
    expect(explainFailure(new ConflictError("In flight.", details(409)), context)).toMatch(
      /Re-run this job when it has finished/,
    );
    expect(
      explainFailure(new RateLimitError("Too many.", details(429, { "retry-after": "30" })), context),
    ).toMatch(/wait 30 s/);
    expect(explainFailure(new ServerError("Boom.", details(503)), context)).toMatch(/re-run safe/);
  });

  it("404 and unreachable services point at base-url", () => {
    expect(explainFailure(new NotFoundError("Not found.", details(404)), context)).toMatch(
      /`base-url` ends with the API version/,
    );
    expect(
      explainFailure(
        new ConnectionError("Could not reach https://api.test: ECONNREFUSED", details(null)),
        context,
      ),
    ).toMatch(/^Could not reach the service at https:\/\/api\.test\/api\/v1: .* Check `base-url`/);
  });

  it("other errors keep their message", () => {
    expect(explainFailure(new Error("plain"), context)).toBe("plain");
  });
});
