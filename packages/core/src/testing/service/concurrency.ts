import { describe, expect, it } from "vitest";
import { slotOf } from "../../scheduler/next-slot.ts";
import { monthKey } from "../../time/month.ts";
import type { ApiResponse, ApiUser, Harness } from "./harness.ts";

const IN_FLIGHT = "A request with this Idempotency-Key is still in progress; retry it shortly.";

/**
 * Sends `count` identical requests at once with one Idempotency-Key and checks what a client may see:
 * each answer is the one stored result (the first, or a replay of it) or 409 while the first runs.
 * Returns the answers; the one that ran has no Idempotent-Replayed header.
 */
export async function burstWithOneKey(
  count: number,
  send: () => Promise<ApiResponse>,
  expectedStatus: number,
): Promise<ApiResponse[]> {
  const answers = await Promise.all(Array.from({ length: count }, send));
  for (const res of answers) {
    expect([expectedStatus, 409], res.text).toContain(res.status);
    if (res.status === 409) expect(res.body).toEqual({ error: IN_FLIGHT });
  }
  const done = answers.filter((res) => res.status === expectedStatus);
  expect(done.length).toBeGreaterThanOrEqual(1);
  expect(done.filter((res) => res.headers.get("idempotent-replayed") === null)).toHaveLength(1);
  // Each is the one result: a replay sent while the first request was still publishing carries the
  // post as its change stored it (publishing), so the record's id is what they all share.
  for (const res of done) {
    if (done[0]!.body?.id !== undefined) expect(res.body.id).toBe(done[0]!.body.id);
    else expect(res.body).toEqual(done[0]!.body);
  }
  return answers;
}

async function countPosts(user: ApiUser): Promise<number> {
  return (await user.get("/posts?limit=100")).body.data.length;
}

export function concurrencyTests(h: Harness): void {
  describe("concurrent requests", () => {
    it("fifty concurrent identical POST /posts with one Idempotency-Key create exactly one post; retries of the 409s replay it", async () => {
      const user = await h.user();
      const body = { caption: "Exactly once", platforms: ["x", "bluesky"] };
      const headers = { "idempotency-key": "release-2.0.0" };
      const answers = await burstWithOneKey(50, () => user.post("/posts", body, { headers }), 201);
      const id = answers.find((res) => res.status === 201)!.body.id;
      expect((await user.get("/posts")).body.data.map((p: { id: string }) => p.id)).toEqual([id]);
      const published = (await h.store.listEvents(user.id)).filter((e) => e.type === "post.published");
      expect(published).toHaveLength(2);
      for (const _ of answers.filter((res) => res.status === 409)) {
        const retry = await user.post("/posts", body, { headers });
        expect(retry.status).toBe(201);
        expect(retry.body.id).toBe(id);
        expect(retry.headers.get("idempotent-replayed")).toBe("true");
      }
      expect(await countPosts(user)).toBe(1);
    });

    it("fifty concurrent identical DELETEs with one Idempotency-Key delete once and write one post.deleted", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Going", platforms: ["x"] });
      const headers = { "idempotency-key": `delete-${post.id}` };
      await burstWithOneKey(50, () => user.delete(`/posts/${post.id}`, { headers }), 200);
      const deleted = (await h.store.listEvents(user.id)).filter((e) => e.type === "post.deleted");
      expect(deleted).toHaveLength(1);
      expect((await user.get(`/posts/${post.id}`)).status).toBe(404);
    });

    it("two hundred concurrent requests add exactly two hundred to usage.api_calls_this_month", async () => {
      const user = await h.user({ plan: "studio" });
      const before = (await user.get("/me")).body.usage.api_calls_this_month;
      const requests = Array.from({ length: 200 }, (_, i) => {
        switch (i % 4) {
          case 0:
            return user.get("/me");
          case 1:
            return user.get("/posts");
          case 2:
            return user.post("/posts", { caption: `count ${i}`, platforms: ["x"], draft: true });
          default:
            return user.post("/posts", { platforms: "x" }); // refused with 400, and still counted
        }
      });
      const answers = await Promise.all(requests);
      expect(answers.map((res) => res.status).filter((s) => s >= 500 || s === 429)).toEqual([]);
      const after = await user.get("/me");
      expect(after.body.usage.api_calls_this_month).toBe(before + 200 + 1);
      expect(await h.store.getApiCalls(user.id, monthKey(h.clock.now()))).toBe(before + 200 + 1);
    });

    it("concurrent posts cannot pass posts_per_month together: exactly the allowance is created", async () => {
      const user = await h.user({ plan: "free", accounts: ["x"] });
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          user.post("/posts", {
            caption: `race ${i}`,
            platforms: ["x"],
            ...(i % 3 === 1 && { schedule_at: h.clock.now() + 3_600_000 }),
            ...(i % 3 === 2 && { draft: true }),
          }),
        ),
      );
      expect(answers.filter((res) => res.status === 201)).toHaveLength(30);
      for (const res of answers.filter((r) => r.status !== 201)) {
        expect(res.status).toBe(400);
        expect(res.body.error).toMatch(/^The free plan allows 30 posts a month/);
      }
      expect(await countPosts(user)).toBe(30);
    });

    it("concurrent connects cannot pass the plan's profiles together", async () => {
      const user = await h.user({ plan: "free", accounts: [] });
      const networks = ["x", "bluesky", "linkedin", "threads", "facebook", "reddit", "discord", "telegram"];
      const answers = await Promise.all(
        networks.map((platform) => user.post("/accounts/connect", { platform })),
      );
      expect(answers.filter((res) => res.status === 201)).toHaveLength(3);
      expect(answers.filter((res) => res.status === 400)).toHaveLength(networks.length - 3);
      expect((await user.get("/accounts")).body.data).toHaveLength(3);
      const connected = (await h.store.listEvents(user.id)).filter((e) => e.type === "account.connected");
      expect(connected).toHaveLength(3);
    });

    it('concurrent "next" posts for the same network land in different slots', async () => {
      const user = await h.user();
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          user.post("/schedule", { caption: `slot ${i}`, platforms: ["x"], at: "next" }),
        ),
      );
      for (const res of answers) expect(res.status).toBe(201);
      const slots = answers.map((res) => slotOf(res.body.scheduled_at));
      expect(new Set(slots).size).toBe(6);
      for (const at of answers.map((res) => res.body.scheduled_at)) {
        expect(at).toBeGreaterThanOrEqual(h.clock.now() + 5 * 60_000);
      }
    });
  });
}
