import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CredentialKeyring } from "../../../src/secrets/credential-keyring.ts";
import { sealWebhookSecrets } from "../../../src/secrets/webhook-secrets.ts";
import { MemoryStore } from "../../../src/store/memory.ts";
import type { Store } from "../../../src/store/types.ts";
import { verifyWebhook } from "../../../src/webhooks/verify.ts";
import { receiver, setup } from "./setup.ts";

const newKey = () => new Uint8Array(randomBytes(32));

/** Every signing secret as the store keeps it, with the kept answers of keyed requests. */
async function keptText(store: Store, userId: string, idempotencyKey?: string): Promise<string> {
  const kept = idempotencyKey ? await store.findIdempotentRequest(userId, idempotencyKey, 0) : null;
  return JSON.stringify([await store.listWebhookSecrets(), kept]);
}

describe("webhook signing secrets at rest", () => {
  it("with a keyring the store keeps the secret sealed, bound to its endpoint; deliveries verify with the secret shown once", async () => {
    const keyring = new CredentialKeyring(newKey());
    const { store, clock, subscribe, publish, user } = await setup({ credentialKeyring: keyring });
    const hook = await receiver();
    const { id, secret } = await subscribe(hook.url);
    expect(secret).toMatch(/^whsec_/);
    const stored = (await store.getWebhook(user.id, id))!.secret;
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(secret.slice(6));
    // Copied onto another endpoint's row, it does not open there.
    const other = await subscribe(hook.url);
    await store.setWebhookSecret(other.id, stored, (await store.getWebhook(user.id, other.id))!.secret);

    await publish();
    await clock.advance(0);
    await hook.waitFor(1);
    const signedWithSecret = hook.received.filter((r) => {
      try {
        verifyWebhook(r.body, r.headers, secret, { now: clock.now() });
        return true;
      } catch {
        return false;
      }
    });
    expect(signedWithSecret).toHaveLength(1);
    const [attempt] = await store.listAttempts(other.id, { limit: 10 });
    expect(attempt!.error).toBe("not sent: the signing secret does not open with this endpoint and key");
  });

  it("a POST /webhooks with an Idempotency-Key keeps its answer with the secret sealed, and a retry replays the secret in the clear", async () => {
    const keyring = new CredentialKeyring(newKey());
    const { store, service, apiKey, user } = await setup({ credentialKeyring: keyring });
    const post = () =>
      service.fetch(
        new Request("http://localhost/api/v1/webhooks", {
          method: "POST",
          headers: {
            authorization: `Bearer ${apiKey}`,
            "content-type": "application/json",
            "idempotency-key": "hook-1",
          },
          body: JSON.stringify({ url: "http://127.0.0.1:9/hooks" }),
        }),
      );
    const first = await post();
    expect(first.status).toBe(201);
    const created = (await first.json()) as { id: string; secret: string };
    expect(await keptText(store, user.id, "hook-1")).not.toContain(created.secret.slice(6));

    const again = await post();
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(created);
    expect(await store.listWebhooks(user.id)).toHaveLength(1);
  });

  it("a secret kept in the clear (a database from before sealing) is sealed at start, once, and deliveries still verify with it", async () => {
    const store = new MemoryStore();
    const plain = await setup({ store });
    const hook = await receiver();
    const { id, secret } = await plain.subscribe(hook.url);
    expect((await store.getWebhook(plain.user.id, id))!.secret).toBe(secret);
    await plain.service.close();

    const keyring = new CredentialKeyring(newKey());
    const sealed = await setup({ store, credentialKeyring: keyring });
    const stored = (await store.getWebhook(plain.user.id, id))!.secret;
    expect(stored).toMatch(/^v1\./);
    expect(await keptText(store, plain.user.id)).not.toContain(secret.slice(6));
    // A second start finds nothing left to seal: the value stays as it is.
    expect(await sealWebhookSecrets(store, keyring)).toEqual({ sealed: 0, current: 1, failed: [] });
    expect((await store.getWebhook(plain.user.id, id))!.secret).toBe(stored);

    // A test event through the restarted service, as the endpoint's owner.
    const test = await sealed.service.fetch(
      new Request(`http://localhost/api/v1/webhooks/${id}/test`, {
        method: "POST",
        headers: { authorization: `Bearer ${plain.apiKey}` },
      }),
    );
    expect(test.status).toBe(202);
    await sealed.clock.advance(0);
    await hook.waitFor(1);
    const [delivered] = hook.received;
    expect(verifyWebhook(delivered!.body, delivered!.headers, secret, { now: sealed.clock.now() }).type).toBe(
      "post.published",
    );
  });

  it("with rotate, secrets sealed by a previous key are sealed again under the current one and still verify", async () => {
    const oldKey = newKey();
    const store = new MemoryStore();
    const before = await setup({ store, credentialKeyring: new CredentialKeyring(oldKey) });
    const { id, secret } = await before.subscribe("http://127.0.0.1:9/hooks");
    await before.service.close();
    const sealedBefore = (await store.getWebhook(before.user.id, id))!.secret;

    const rotated = new CredentialKeyring(newKey(), [oldKey]);
    expect(await sealWebhookSecrets(store, rotated)).toEqual({ sealed: 0, current: 1, failed: [] });
    expect(await sealWebhookSecrets(store, rotated, { rotate: true })).toEqual({
      sealed: 1,
      current: 0,
      failed: [],
    });
    const after = (await store.getWebhook(before.user.id, id))!.secret;
    expect(after).not.toBe(sealedBefore);
    expect(rotated.isStale(after)).toBe(false);

    // Only the current key opens it now, to the same secret: the previous key can be retired.
    const binding = `socialpub:webhook:${before.user.id}:${id}`;
    expect(() => new CredentialKeyring(oldKey).open(after, binding)).toThrow();
    expect(rotated.open(after, binding)).toBe(secret);
  });

  it("a keyring that does not hold the key a secret was sealed with reports it, never the secret", async () => {
    const store = new MemoryStore();
    const before = await setup({ store, credentialKeyring: new CredentialKeyring(newKey()) });
    const { id, secret } = await before.subscribe("http://127.0.0.1:9/hooks");
    await before.service.close();
    const report = await sealWebhookSecrets(store, new CredentialKeyring(newKey()), { rotate: true });
    expect(report.sealed).toBe(0);
    expect(report.failed).toEqual([
      {
        webhook_id: id,
        user_id: before.user.id,
        reason: expect.stringMatching(/^the signing secret was sealed with key \w{8}/),
      },
    ]);
    expect(JSON.stringify(report)).not.toContain(secret.slice(6));
  });
});
