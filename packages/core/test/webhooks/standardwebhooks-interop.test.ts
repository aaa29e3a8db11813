import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signWebhook } from "../../src/webhooks/sign.ts";
import { WebhookVerificationError } from "../../src/webhooks/verification-error.ts";
import { verifyWebhook } from "../../src/webhooks/verify.ts";
import { newSecret, publishedEvent } from "./sample-event.ts";

// The reference implementation reads the system clock, so these deliveries are signed "now".
describe("agreement with the standardwebhooks package", () => {
  it("standardwebhooks verifies what signWebhook signs", () => {
    const secret = newSecret();
    // One event, read once: its `created` is the current second, which a slow run can see change.
    const event = publishedEvent();
    const body = JSON.stringify(event);
    const headers = signWebhook(body, secret);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(event);
  });

  it("verifyWebhook accepts what standardwebhooks signs", () => {
    const secret = newSecret();
    const event = publishedEvent();
    const body = JSON.stringify(event);
    const now = new Date();
    const id = "evt_from_reference";
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, now, body),
    };
    expect(verifyWebhook(body, headers, secret)).toEqual(event);
  });

  it("both produce the same signature for the same id, time and body", () => {
    const secret = newSecret();
    const body = JSON.stringify(publishedEvent());
    const at = new Date(1_780_000_000_000);
    const ours = signWebhook(body, secret, { id: "evt_same", timestamp: at });
    expect(ours["webhook-signature"]).toBe(new Webhook(secret).sign("evt_same", at, body));
  });

  it("both refuse a body changed after signing", () => {
    const secret = newSecret();
    const body = JSON.stringify(publishedEvent());
    const headers = signWebhook(body, secret);
    const tampered = body.replace('"x"', '"bluesky"');
    expect(() => new Webhook(secret).verify(tampered, { ...headers })).toThrow();
    expect(() => verifyWebhook(tampered, headers, secret)).toThrow(WebhookVerificationError);
  });

  it("both refuse a delivery signed six minutes ago", () => {
    const secret = newSecret();
    const body = JSON.stringify(publishedEvent());
    const headers = signWebhook(body, secret, { timestamp: Math.floor(Date.now() / 1000) - 360 });
    expect(() => new Webhook(secret).verify(body, { ...headers })).toThrow(/too old/);
    expect(() => verifyWebhook(body, headers, secret)).toThrow(/old/);
  });
});
