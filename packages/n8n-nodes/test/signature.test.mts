import { randomBytes } from "node:crypto";
import { signWebhook } from "@socialpub/core";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { type SignedRequest, verifyWebhook } from "../nodes/shared/signature.ts";

const secret = `whsec_${randomBytes(32).toString("base64")}`;
const now = 1_800_000_000;
const body = JSON.stringify({
  id: "evt_1",
  type: "post.published",
  created: now,
  data: {
    post_id: "post_1",
    platform: "x",
    status: "published",
    permalink: "https://x.example/1",
    metrics: { reach: 0, likes: 0 },
  },
});

function signed(overrides: Partial<SignedRequest> = {}, at = now): SignedRequest {
  const headers = signWebhook(body, secret, { timestamp: at });
  return {
    id: headers["webhook-id"],
    timestamp: headers["webhook-timestamp"],
    signature: headers["webhook-signature"],
    rawBody: Buffer.from(body),
    ...overrides,
  };
}

describe("Standard Webhooks verification", () => {
  it("accepts a delivery signed by the service", () => {
    expect(verifyWebhook(signed(), secret, now)).toEqual({ ok: true });
  });

  it("accepts a delivery signed by the standardwebhooks reference library", () => {
    const headers = new Webhook(secret.slice("whsec_".length)).sign("msg_2", new Date(now * 1000), body);
    const request: SignedRequest = {
      id: "msg_2",
      timestamp: String(now),
      signature: headers,
      rawBody: Buffer.from(body),
    };
    expect(verifyWebhook(request, secret, now)).toEqual({ ok: true });
  });

  it("accepts any matching entry among several signatures (secret rotation)", () => {
    const good = signed().signature;
    const other = `v1,${randomBytes(32).toString("base64")}`;
    expect(verifyWebhook(signed({ signature: `${other} ${good}` }), secret, now)).toEqual({ ok: true });
  });

  it("refuses a body changed after signing, even by one byte of whitespace", () => {
    expect(verifyWebhook(signed({ rawBody: Buffer.from(`${body} `) }), secret, now)).toEqual({
      ok: false,
      reason: "no webhook signature matches",
    });
  });

  it("refuses a signature made with another secret", () => {
    const other = `whsec_${randomBytes(32).toString("base64")}`;
    expect(verifyWebhook(signed(), other, now).ok).toBe(false);
  });

  it("refuses a changed webhook-id, since the id is signed too", () => {
    expect(verifyWebhook(signed({ id: "evt_other" }), secret, now).ok).toBe(false);
  });

  it("accepts a timestamp up to 5 minutes away and refuses one beyond", () => {
    expect(verifyWebhook(signed({}, now - 300), secret, now)).toEqual({ ok: true });
    expect(verifyWebhook(signed({}, now + 300), secret, now)).toEqual({ ok: true });
    expect(verifyWebhook(signed({}, now - 301), secret, now)).toEqual({
      ok: false,
      reason: "webhook-timestamp is outside the 5-minute tolerance",
    });
    expect(verifyWebhook(signed({}, now + 301), secret, now).ok).toBe(false);
  });

  it("refuses missing headers, a missing body and a missing secret without throwing", () => {
    expect(verifyWebhook(signed({ signature: undefined }), secret, now)).toEqual({
      ok: false,
      reason: "webhook signature headers are missing",
    });
    expect(verifyWebhook(signed({ id: "" }), secret, now).ok).toBe(false);
    expect(verifyWebhook(signed({ rawBody: undefined }), secret, now)).toEqual({
      ok: false,
      reason: "the raw request body is unavailable",
    });
    expect(verifyWebhook(signed(), undefined, now)).toEqual({
      ok: false,
      reason: "no signing secret is stored for this trigger",
    });
  });

  it("refuses malformed values without throwing", () => {
    for (const request of [
      signed({ timestamp: "12e3" }),
      signed({ signature: "v1" }),
      signed({ signature: "v2,abc" }),
      signed({ signature: "v1,!!!not-base64!!!" }),
      signed({ signature: "v1,," }),
    ]) {
      expect(verifyWebhook(request, secret, now).ok).toBe(false);
    }
    expect(verifyWebhook(signed(), "whsec_", now)).toEqual({
      ok: false,
      reason: "the stored signing secret is malformed",
    });
  });

  it("never puts the secret or the expected signature in its reasons", () => {
    const result = verifyWebhook(signed({ rawBody: Buffer.from("{}") }), secret, now);
    const expected = signed().signature ?? "";
    expect(JSON.stringify(result)).not.toContain(secret.slice(6));
    expect(JSON.stringify(result)).not.toContain(expected.slice(3));
  });
});
