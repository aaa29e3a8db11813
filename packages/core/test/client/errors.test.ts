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

describe("secrets in bodies held by errors", () => {
  const SECRET = "whsec_c2lnbmluZy1zZWNyZXQtb2YtMzItYnl0ZXMtLS0tLS0tLS0=";
  const endpoint = {
    id: "wh_01",
    url: "https://example.com/hook",
    events: ["post.published"],
    status: "enabled",
    created_at: 1_800_000_000_000,
  };
  const printed = (error: SocialPublishError) =>
    [error.message, error.body, JSON.stringify(error), inspect(error, { depth: 10, showHidden: true })].join(
      "\n",
    );

  it("a POST /webhooks answer that fails validation keeps its body with the secret hidden", async () => {
    server.script({ status: 201, body: { ...endpoint, created_at: "yesterday", secret: SECRET } });
    const error = await failure(client().webhooks.create({ url: "https://example.com/hook" }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain("created_at");
    expect(printed(error)).not.toContain(SECRET.slice(6));
    expect(JSON.parse(error.body!)).toEqual({ ...endpoint, created_at: "yesterday", secret: "[redacted]" });
  });

  it("a body that is not JSON, or cut short, loses anything shaped like a secret or an API key", async () => {
    server.script({ status: 201, body: `{"id":"wh_01","secret":"${SECRET.slice(0, 20)}` });
    const cut = await failure(client().webhooks.create({ url: "https://example.com/hook" }));
    expect(cut.body).toBe('{"id":"wh_01","secret":"whsec_[redacted]');

    server.script({ status: 500, body: `upstream said: signing=${SECRET} key=${API_KEY}` });
    const text = await failure(client().me());
    expect(text.body).toBe("upstream said: signing=whsec_[redacted] key=sp_test_[redacted]");
  });

  it("hides secret fields wherever they are, and escaped slashes of a secret too", async () => {
    const body = `{"error":"Bad.","detail":{"client_secret":"abc\\"def","webhook":{"secret" : "${SECRET.replace("/", "\\/")}"}},"x":"${SECRET.replace(/=$/, "\\/=")}"}`;
    server.script({ status: 400, body });
    const error = await failure(client().me());
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe("Bad.");
    expect(JSON.parse(error.body!)).toEqual({
      error: "Bad.",
      detail: { client_secret: "[redacted]", webhook: { secret: "[redacted]" } },
      x: "whsec_[redacted]",
    });
  });

  it("leaves a body without secrets as received", async () => {
    const body = '{ "error" : "Post not found.",\n "secretive": "no" }';
    server.script({ status: 404, body });
    expect((await failure(client().posts.get("post_1"))).body).toBe(body);
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
