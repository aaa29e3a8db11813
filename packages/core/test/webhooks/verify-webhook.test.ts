import { describe, expect, it } from "vitest";
import { signWebhook } from "../../src/webhooks/sign.ts";
import { WebhookVerificationError } from "../../src/webhooks/verification-error.ts";
import { verifyWebhook } from "../../src/webhooks/verify.ts";
import { newSecret, publishedEvent } from "./sample-event.ts";

const NOW_MS = 1_780_000_000_000;
const NOW_S = NOW_MS / 1000;

function signed(options: { timestamp?: number; secret?: string } = {}) {
  const secret = options.secret ?? newSecret();
  const body = JSON.stringify(publishedEvent(NOW_S));
  const headers = signWebhook(body, secret, { timestamp: options.timestamp ?? NOW_S });
  return { secret, body, headers };
}

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  throw new Error("expected verification to fail");
}

describe("verifyWebhook", () => {
  it("returns the typed event for a delivery signed with the endpoint's secret", () => {
    const { secret, body, headers } = signed();
    const event = verifyWebhook(body, headers, secret, { now: NOW_MS });
    expect(event).toEqual(publishedEvent(NOW_S));
    expect(event.type === "post.published" && event.data.platform).toBe("x");
  });

  it("accepts the raw body as a Buffer and headers as a fetch Headers or in any case", () => {
    const { secret, body, headers } = signed();
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(Buffer.from(body), new Headers({ ...headers }), secret, { now: NOW_MS }).id).toBe(
      publishedEvent().id,
    );
    expect(verifyWebhook(body, upper, secret, { now: new Date(NOW_MS) }).id).toBe(publishedEvent().id);
  });

  it("accepts the secret with or without the whsec_ prefix", () => {
    const { secret, body, headers } = signed();
    expect(verifyWebhook(body, headers, secret.slice("whsec_".length), { now: NOW_MS }).type).toBe(
      "post.published",
    );
  });

  it("uses the webhook-id of the envelope when signing without an explicit id", () => {
    const { headers } = signed();
    expect(headers["webhook-id"]).toBe(publishedEvent().id);
  });

  it("accepts a header that lists several signatures when one of them matches", () => {
    const { secret, body, headers } = signed();
    const other = signWebhook(body, newSecret(), { timestamp: NOW_S })["webhook-signature"];
    const several = {
      ...headers,
      "webhook-signature": `${other} v1a,ignored ${headers["webhook-signature"]}`,
    };
    expect(verifyWebhook(body, several, secret, { now: NOW_MS }).type).toBe("post.published");
  });

  it.each(["webhook-id", "webhook-timestamp", "webhook-signature"] as const)(
    "refuses a delivery without the %s header and names it",
    (name) => {
      const { secret, body, headers } = signed();
      const without: Record<string, string> = { ...headers };
      delete without[name];
      expect(reasonOf(() => verifyWebhook(body, without, secret, { now: NOW_MS }))).toBe("missing_header");
      expect(() => verifyWebhook(body, without, secret, { now: NOW_MS })).toThrow(name);
    },
  );

  it("refuses a timestamp that is not Unix seconds", () => {
    const { secret, body, headers } = signed();
    const bad = { ...headers, "webhook-timestamp": "2026-01-01T00:00:00Z" };
    expect(reasonOf(() => verifyWebhook(body, bad, secret, { now: NOW_MS }))).toBe("invalid_timestamp");
  });

  it("refuses a delivery more than five minutes old by default, and accepts one just inside", () => {
    const stale = signed({ timestamp: NOW_S - 301 });
    expect(reasonOf(() => verifyWebhook(stale.body, stale.headers, stale.secret, { now: NOW_MS }))).toBe(
      "timestamp_too_old",
    );
    const fresh = signed({ timestamp: NOW_S - 300 });
    expect(verifyWebhook(fresh.body, fresh.headers, fresh.secret, { now: NOW_MS }).type).toBe(
      "post.published",
    );
  });

  it("refuses a delivery more than five minutes in the future by default, and accepts one just inside", () => {
    const ahead = signed({ timestamp: NOW_S + 301 });
    expect(reasonOf(() => verifyWebhook(ahead.body, ahead.headers, ahead.secret, { now: NOW_MS }))).toBe(
      "timestamp_too_new",
    );
    const near = signed({ timestamp: NOW_S + 300 });
    expect(verifyWebhook(near.body, near.headers, near.secret, { now: NOW_MS }).type).toBe("post.published");
  });

  it("applies a custom tolerance", () => {
    const { secret, body, headers } = signed({ timestamp: NOW_S - 20 });
    expect(reasonOf(() => verifyWebhook(body, headers, secret, { now: NOW_MS, toleranceSeconds: 10 }))).toBe(
      "timestamp_too_old",
    );
  });

  it("refuses a body changed after signing, even by one byte", () => {
    const { secret, body, headers } = signed();
    const tampered = body.replace('"reach":0', '"reach":1');
    expect(tampered).not.toBe(body);
    expect(reasonOf(() => verifyWebhook(tampered, headers, secret, { now: NOW_MS }))).toBe(
      "no_matching_signature",
    );
  });

  it("refuses a signature made with another secret", () => {
    const { body, headers } = signed();
    expect(reasonOf(() => verifyWebhook(body, headers, newSecret(), { now: NOW_MS }))).toBe(
      "no_matching_signature",
    );
  });

  it("refuses a signature whose id or timestamp header was changed", () => {
    const { secret, body, headers } = signed();
    const otherId = { ...headers, "webhook-id": "evt_other" };
    const otherTime = { ...headers, "webhook-timestamp": String(NOW_S + 1) };
    expect(reasonOf(() => verifyWebhook(body, otherId, secret, { now: NOW_MS }))).toBe(
      "no_matching_signature",
    );
    expect(reasonOf(() => verifyWebhook(body, otherTime, secret, { now: NOW_MS }))).toBe(
      "no_matching_signature",
    );
  });

  it("ignores signatures of other versions", () => {
    const { secret, body, headers } = signed();
    const digest = headers["webhook-signature"].slice("v1,".length);
    const v2 = { ...headers, "webhook-signature": `v2,${digest}` };
    expect(reasonOf(() => verifyWebhook(body, v2, secret, { now: NOW_MS }))).toBe("no_matching_signature");
  });

  it("refuses a correctly signed body that is not a known event, saying which field is wrong", () => {
    const secret = newSecret();
    const body = JSON.stringify({ ...publishedEvent(NOW_S), type: "post.exploded" });
    const headers = signWebhook(body, secret, { timestamp: NOW_S });
    expect(reasonOf(() => verifyWebhook(body, headers, secret, { now: NOW_MS }))).toBe("invalid_payload");
    expect(() => verifyWebhook(body, headers, secret, { now: NOW_MS })).toThrow(/type/);
    const notJson = "hello";
    const notJsonHeaders = signWebhook(notJson, secret, { timestamp: NOW_S });
    expect(() => verifyWebhook(notJson, notJsonHeaders, secret, { now: NOW_MS })).toThrow(/not JSON/);
  });

  it("explains that a parsed body cannot be verified", () => {
    const { secret, headers } = signed();
    const parsed = publishedEvent(NOW_S) as unknown as string;
    expect(() => verifyWebhook(parsed, headers, secret)).toThrow(/raw request body/);
  });

  it("refuses a malformed secret without repeating it", () => {
    const { body, headers } = signed();
    const secret = "whsec_not base64!";
    let message = "";
    try {
      verifyWebhook(body, headers, secret, { now: NOW_MS });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/secret is not valid/);
    expect(message).not.toContain("not base64!");
  });
});
