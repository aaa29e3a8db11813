import { describe, expect, it } from "vitest";
import { monthKey, startOfNextMonth } from "../../time/month.ts";
import type { Harness } from "./harness.ts";

export function limitsTests(h: Harness): void {
  describe("API call allowance and rate limit", () => {
    it("past the plan's monthly API calls: 429 naming the plan, with Retry-After until the month turns", async () => {
      const user = await h.user({ plan: "free", accounts: ["x"] });
      const month = monthKey(h.clock.now());
      for (let i = 0; i < 999; i++) await h.store.incrementApiCalls(user.id, month);
      const last = await user.get("/me");
      expect(last.status).toBe(200);
      expect(last.body.usage.api_calls_this_month).toBe(1000);
      const res = await user.get("/me");
      expect(res.status).toBe(429);
      expect(res.body.error).toMatch(/^The free plan allows 1000 API calls a month/);
      const turns = startOfNextMonth(h.clock.now());
      expect(Number(res.headers.get("retry-after"))).toBe(Math.ceil((turns - h.clock.now()) / 1000));
      await h.clock.set(turns);
      expect((await user.get("/me")).status).toBe(200);
    });

    it("each key may make 600 requests a minute; the next answers 429 with Retry-After and RateLimit headers", async () => {
      const user = await h.user({ plan: "studio", accounts: ["x"] });
      const first = await user.get("/accounts");
      expect(first.headers.get("ratelimit-policy")).toBe('"default";q=600;w=60');
      expect(first.headers.get("ratelimit")).toMatch(/^"default";r=599;t=\d+$/);
      for (let i = 1; i < 600; i++) expect((await user.get("/accounts")).status).toBe(200);
      const res = await user.get("/accounts");
      expect(res.status).toBe(429);
      expect(res.body.error).toMatch(/^Too many requests/);
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(res.headers.get("ratelimit")).toBe(`"default";r=0;t=${retryAfter}`);
      await h.clock.advance(retryAfter * 1000);
      expect((await user.get("/accounts")).status).toBe(200);
    });

    it("the rate limit is per key: another user's key is unaffected", async () => {
      const busy = await h.user({ plan: "studio", accounts: ["x"] });
      const calm = await h.user({ plan: "studio", accounts: ["x"] });
      for (let i = 0; i < 600; i++) await busy.get("/accounts");
      expect((await busy.get("/accounts")).status).toBe(429);
      expect((await calm.get("/accounts")).status).toBe(200);
    });
  });
}
