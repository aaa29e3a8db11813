import { describe, expect, it } from "vitest";
import { bodyTextOf, headerOf, textResponse, withHeaders } from "../src/service/responses.ts";

describe("responses the service builds from text", () => {
  it("take added headers without losing their status, text or headers, and answer them by name", async () => {
    const made = textResponse(201, '{"id":"post_1"}', {
      "content-type": "application/json",
      link: "</next>",
    });
    const answered = withHeaders(made, { "x-request-id": "req_1", ratelimit: '"default";r=9;t=60' });
    expect(answered.status).toBe(201);
    expect(bodyTextOf(answered)).toBe('{"id":"post_1"}');
    expect(headerOf(answered, "x-request-id")).toBe("req_1");
    expect(headerOf(answered, "link")).toBe("</next>");
    expect(headerOf(answered, "retry-after")).toBeNull();
    // What the recorded headers say is what the Response itself carries.
    expect(Object.fromEntries(answered.headers)).toEqual({
      "content-type": "application/json",
      link: "</next>",
      "x-request-id": "req_1",
      ratelimit: '"default";r=9;t=60',
    });
    expect(await answered.text()).toBe('{"id":"post_1"}');
  });

  it("a header added again replaces the first, as Headers.set does", () => {
    const once = withHeaders(textResponse(200, "{}", { "x-request-id": "req_old" }), {
      "x-request-id": "req_new",
    });
    expect(headerOf(once, "x-request-id")).toBe("req_new");
    expect(once.headers.get("x-request-id")).toBe("req_new");
  });

  it("other responses get the headers set, or a copy when theirs cannot change", async () => {
    const plain = new Response("hello", { status: 202, headers: { "content-type": "text/plain" } });
    expect(withHeaders(plain, { "x-request-id": "req_2" })).toBe(plain);
    expect(headerOf(plain, "x-request-id")).toBe("req_2");

    const redirect = Response.redirect("https://example.com/", 302); // immutable headers
    const copied = withHeaders(redirect, { "x-request-id": "req_3" });
    expect(copied.status).toBe(302);
    expect(copied.headers.get("location")).toBe("https://example.com/");
    expect(headerOf(copied, "x-request-id")).toBe("req_3");
  });

  it("a response made from a Headers object is read through its headers", () => {
    const made = textResponse(200, "{}", new Headers({ "content-type": "application/json" }));
    const answered = withHeaders(made, { "x-request-id": "req_4" });
    expect(headerOf(answered, "content-type")).toBe("application/json");
    expect(headerOf(answered, "x-request-id")).toBe("req_4");
    expect(bodyTextOf(answered)).toBe("{}");
  });
});
