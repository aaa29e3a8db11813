import { afterAll, describe, expect, it } from "vitest";
import { DiscordFake } from "../../src/discord/fake/server.ts";
import { TelegramFake } from "../../src/telegram/fake/server.ts";

// The fakes' latency option stands in for a network across the internet: every answer comes that long
// after its request, requests wait side by side, and the fake counts how many waited at once.

const LATENCY_MS = 250;
const open: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(open.map((fake) => fake.close()));
});

async function timed(request: () => Promise<Response>): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await request();
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

describe("a fake with latencyMs", () => {
  it("Discord: answers each webhook call after the latency, five side by side, and counts the peak", async () => {
    const fake = await DiscordFake.start({ checkSpec: false, latencyMs: LATENCY_MS });
    open.push(fake);
    const hook = fake.addWebhook({ name: "Releases" });
    const calls = await Promise.all(
      Array.from({ length: 5 }, () =>
        timed(() =>
          fetch(`${fake.url}/api/v10/webhooks/${hook.id}/${hook.token}?wait=true`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ content: "Release 2.4 is out" }),
          }),
        ),
      ),
    );
    for (const call of calls) {
      expect(call.status).toBe(200);
      expect(call.ms).toBeGreaterThanOrEqual(LATENCY_MS - 5);
    }
    // Side by side, not one after the other.
    expect(Math.max(...calls.map((c) => c.ms))).toBeLessThan(LATENCY_MS * 5);
    expect(fake.peakInFlight).toBe(5);
    expect(fake.inFlight).toBe(0);
    expect(fake.messages(hook.id)).toHaveLength(5);
  });

  it("Telegram: answers each Bot API call after the latency, side by side, and counts the peak", async () => {
    const fake = await TelegramFake.start({ checkSpec: false, latencyMs: LATENCY_MS });
    open.push(fake);
    const bot = fake.addBot({ username: "releases_bot" });
    const calls = await Promise.all(
      Array.from({ length: 3 }, () => timed(() => fetch(`${fake.url}/bot${bot.token}/getMe`))),
    );
    for (const call of calls) {
      expect(call.status).toBe(200);
      expect(call.ms).toBeGreaterThanOrEqual(LATENCY_MS - 5);
    }
    expect(Math.max(...calls.map((c) => c.ms))).toBeLessThan(LATENCY_MS * 3);
    expect(fake.peakInFlight).toBe(3);
  });

  it("refuses a latency that is not a number of milliseconds", async () => {
    await expect(DiscordFake.start({ checkSpec: false, latencyMs: -1 })).rejects.toThrow(
      "latencyMs must be a number of milliseconds, 0 or more; it is -1.",
    );
  });
});
