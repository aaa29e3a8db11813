import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  SocialPublishClient,
  SocialPublishError,
  UnprocessableEntityError,
} from "../../src/client/index.ts";
import { sampleUser } from "./helpers/sample-resources.ts";
import { ScriptedServer } from "./helpers/scripted-server.ts";

const API_KEY = "sp_test_SECRETsecretSECRETsecret0123456789";
const server = new ScriptedServer();
const client = () => new SocialPublishClient({ apiKey: API_KEY, baseUrl: server.baseUrl, maxRetries: 0 });

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});

async function failure(promise: Promise<unknown>): Promise<SocialPublishError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SocialPublishError);
  return error as SocialPublishError;
}

describe("errors", () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [404, NotFoundError],
    [409, ConflictError],
    [413, PayloadTooLargeError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, ServerError],
    [503, ServerError],
  ])("maps %i to %o", async (status, ErrorClass) => {
    server.script({ status, body: { error: `Message for ${status}.` } });
    const error = await failure(client().me());
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.message).toBe(`Message for ${status}.`);
  });

  it("uses the base class for other statuses", async () => {
    server.script({
      status: 405,
      body: { error: "Method DELETE is not allowed on /api/v1/me; allowed: GET." },
    });
    const error = await failure(client().me());
    expect(error.constructor).toBe(SocialPublishError);
    expect(error.status).toBe(405);
  });

  it("carries the status, the service's message, request id, headers, raw body, method and path", async () => {
    const body = JSON.stringify({ error: "Post not found." });
    server.script({ status: 404, body: JSON.parse(body), headers: { "x-request-id": "req_abc123" } });
    const error = await failure(client().posts.get("post_missing"));
    expect(error).toMatchObject({
      name: "NotFoundError",
      status: 404,
      message: "Post not found.",
      requestId: "req_abc123",
      body,
      method: "GET",
      path: "/posts/post_missing",
    });
    expect(error.headers.get("content-type")).toBe("application/json");
  });

  it("reports Retry-After on a 429 in seconds", async () => {
    server.script({ status: 429, body: { error: "Slow down." }, headers: { "retry-after": "7200" } });
    const error = await failure(client().me());
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(7200);
  });

  it("describes an error answer that has no error message, keeping the raw body", async () => {
    server.script({ status: 502, body: "<html>Bad Gateway</html>" });
    const error = await failure(client().me());
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe("The service answered 502 without an error message.");
    expect(error.body).toBe("<html>Bad Gateway</html>");
  });

  it("never puts the API key in an error, its fields, its JSON or its printed form", async () => {
    server.script({ status: 401, body: { error: "Invalid or revoked API key." } });
    const error = await failure(client().me());
    expect(error).toBeInstanceOf(AuthenticationError);
    const everything = [
      error.message,
      error.stack,
      JSON.stringify(error),
      inspect(error, { depth: 10, showHidden: true }),
      JSON.stringify(Object.fromEntries(error.headers)),
    ].join("\n");
    expect(everything).not.toContain(API_KEY);
    expect(everything).not.toContain("SECRETsecret");
  });

  it("does not show the API key when the client itself is printed", () => {
    const printed = [inspect(client(), { depth: 10, showHidden: true }), JSON.stringify(client())].join("\n");
    expect(printed).not.toContain("SECRETsecret");
  });
});

describe("response validation", () => {
  it("rejects a 2xx body that does not match the schema, naming the schema and the field", async () => {
    server.script({ status: 200, body: { ...sampleUser(), plan: "platinum", usage: {} } });
    const error = await failure(client().me());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.status).toBe(200);
    expect(error.message).toContain(
      "GET /me answered 200 with a body that does not match the CurrentUser schema",
    );
    expect(error.message).toContain("plan");
    expect(error.message).toContain("usage.api_calls_this_month");
  });

  it("rejects a 2xx body that is not JSON", async () => {
    server.script({ status: 200, body: "OK" });
    const error = await failure(client().me());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe("GET /me answered 200 with a body that is not JSON.");
    expect(error.body).toBe("OK");
  });

  it("accepts fields the contract does not list, and leaves them out of the result", async () => {
    server.script({ status: 200, body: { ...sampleUser(), beta_features: ["x"] } });
    expect(await client().me()).toEqual(sampleUser());
  });
});

describe("construction", () => {
  it("refuses a missing API key, without echoing anything", () => {
    expect(() => new SocialPublishClient({ apiKey: "" })).toThrow(/apiKey is required/);
    expect(() => new SocialPublishClient({ apiKey: "sp_test_ abc\n" })).toThrow(/cannot be sent in a header/);
  });

  it("refuses a base URL that is not absolute http(s)", () => {
    expect(() => new SocialPublishClient({ apiKey: API_KEY, baseUrl: "/api/v1" })).toThrow(/absolute URL/);
    expect(() => new SocialPublishClient({ apiKey: API_KEY, baseUrl: "ftp://example.com/api/v1" })).toThrow(
      /http or https/,
    );
    expect(
      () => new SocialPublishClient({ apiKey: API_KEY, baseUrl: "https://u:p@example.com/api/v1" }),
    ).toThrow(/credentials/);
  });

  it("refuses negative retries and a zero timeout", () => {
    expect(() => new SocialPublishClient({ apiKey: API_KEY, maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => new SocialPublishClient({ apiKey: API_KEY, timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});
