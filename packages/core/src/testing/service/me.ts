import { describe, expect, it } from "vitest";
import { CurrentUser } from "../../contract/resources.ts";
import { type Harness, keysOf } from "./harness.ts";

export function meTests(h: Harness): void {
  describe("GET /me", () => {
    it("answers the current user with exactly the contract's fields", async () => {
      const user = await h.user({ email: "ada@example.com", name: "Ada Lovelace", studio: "Engines" });
      const res = await user.get("/me");
      expect(res.status).toBe(200);
      expect(CurrentUser.parse(res.body)).toEqual(res.body);
      expect(keysOf(res.body)).toEqual(["email", "id", "limits", "name", "plan", "studio", "usage"]);
      expect(keysOf(res.body.limits)).toEqual(["api_calls_per_month", "posts_per_month", "profiles"]);
      expect(keysOf(res.body.usage)).toEqual(["api_calls_this_month"]);
      expect(res.body).toMatchObject({
        id: user.id,
        email: "ada@example.com",
        name: "Ada Lovelace",
        studio: "Engines",
        plan: "creator",
      });
    });

    it("reports each plan's limits, null posts_per_month meaning unlimited", async () => {
      const expected = {
        free: { profiles: 3, posts_per_month: 30, api_calls_per_month: 1000 },
        creator: { profiles: 12, posts_per_month: 300, api_calls_per_month: 10000 },
        studio: { profiles: 50, posts_per_month: null, api_calls_per_month: 100000 },
      } as const;
      for (const plan of ["free", "creator", "studio"] as const) {
        const user = await h.user({ plan, accounts: ["x"] });
        const res = await user.get("/me");
        expect(res.body.plan).toBe(plan);
        expect(res.body.limits).toEqual(expected[plan]);
      }
    });

    it("usage.api_calls_this_month counts every authenticated request, this one included", async () => {
      const user = await h.user();
      expect((await user.get("/me")).body.usage.api_calls_this_month).toBe(1);
      await user.get("/accounts");
      await user.post("/posts", { platforms: ["x"] });
      expect((await user.get("/me")).body.usage.api_calls_this_month).toBe(4);
    });

    it("usage.api_calls_this_month starts again when the UTC month turns", async () => {
      const user = await h.user();
      await user.get("/me");
      await user.get("/me");
      const now = new Date(h.clock.now());
      await h.clock.set(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      expect((await user.get("/me")).body.usage.api_calls_this_month).toBe(1);
    });

    it("a request without a valid key is not counted", async () => {
      const user = await h.user();
      await user.get("/me", { anonymous: true });
      expect((await user.get("/me")).body.usage.api_calls_this_month).toBe(1);
    });
  });
}
