import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ApiUser, type Harness, ORIGIN } from "./harness.ts";

/** The path of the next page from a `Link: <…>; rel="next"` header, or null on the last page. */
export function nextPageOf(link: string | null): string | null {
  if (link === null) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  if (!match) throw new Error(`Link is not <…>; rel="next": ${link}`);
  const url = new URL(match[1]!, `${ORIGIN}/api/v1/posts`);
  return `${ORIGIN}${url.pathname}${url.search}`;
}

type Kind = "published" | "draft";

/** What happens between two pages: posts created, and posts deleted (picked among those alive). */
interface BetweenPages {
  creates: Kind[];
  deletes: number[];
}

const kind = fc.constantFrom<Kind>("published", "draft");
const scenario = fc.record({
  initial: fc.array(kind, { minLength: 4, maxLength: 30 }),
  limit: fc.integer({ min: 1, max: 6 }),
  filter: fc.constantFrom<Kind | null>(null, "draft", "published"),
  between: fc.array(
    fc.record({
      creates: fc.array(kind, { maxLength: 3 }),
      deletes: fc.array(fc.nat(), { maxLength: 3 }),
    }),
    { maxLength: 12 },
  ),
});

async function create(user: ApiUser, kind: Kind, n: number): Promise<string> {
  const post = await user.createPost({ caption: `page ${n}`, platforms: ["x"], draft: kind === "draft" });
  return post.id;
}

export function paginationTests(h: Harness): void {
  describe("cursor pagination", () => {
    it("pages stay exact while posts are created and deleted between them: every post that existed throughout is listed once, none twice, none invented", async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ initial, limit, filter, between }) => {
          const user = await h.user({ plan: "studio", accounts: ["x"] });
          const kinds = new Map<string, Kind>();
          let n = 0;
          for (const k of initial) kinds.set(await create(user, k, n++), k);
          const atStart = new Set(kinds.keys());
          const alive = new Set(atStart);
          const deleted = new Set<string>();

          const seen: string[] = [];
          let path: string | null = `/posts?limit=${limit}${filter ? `&status=${filter}` : ""}`;
          let page = 0;
          while (path !== null) {
            const res = await user.get(path);
            expect(res.status).toBe(200);
            expect(res.body.data.length).toBeLessThanOrEqual(limit);
            seen.push(...res.body.data.map((p: { id: string }) => p.id));
            path = nextPageOf(res.headers.get("link"));
            const step: BetweenPages | undefined = between[page++];
            if (path === null || !step) continue;
            for (const k of step.creates) {
              const id = await create(user, k, n++);
              kinds.set(id, k);
              alive.add(id);
            }
            for (const pick of step.deletes) {
              if (alive.size === 0) break;
              const id = [...alive][pick % alive.size]!;
              expect((await user.delete(`/posts/${id}`)).status).toBe(200);
              alive.delete(id);
              deleted.add(id);
            }
          }

          const wanted = (id: string) => filter === null || kinds.get(id) === filter;
          const throughout = [...atStart].filter((id) => !deleted.has(id) && wanted(id));
          // No post twice; most recent first across pages.
          expect(new Set(seen).size).toBe(seen.length);
          expect(seen).toEqual([...seen].sort().reverse());
          // None skipped: every post there from the first page to the last is listed.
          for (const id of throughout) expect(seen).toContain(id);
          // None invented: pages continue from where the previous one ended, so posts created after the
          // first page (newer than it) never appear, nor does anything the filter excludes.
          for (const id of seen) {
            expect(atStart.has(id)).toBe(true);
            expect(wanted(id)).toBe(true);
          }
        }),
        { numRuns: 25 },
      );
    }, 60_000);

    it("the other lists (accounts, webhooks, a post's targets) are bounded and always answer whole, without a Link", async () => {
      const user = await h.user({
        plan: "studio",
        accounts: ["tiktok", "instagram", "youtube", "x", "linkedin", "facebook", "threads", "pinterest"],
      });
      await user.post("/accounts/connect", { platform: "reddit" });
      await user.post("/accounts/connect", { platform: "bluesky" });
      await user.post("/accounts/connect", { platform: "discord" });
      await user.post("/accounts/connect", { platform: "telegram" });
      const accounts = await user.get("/accounts?limit=1");
      expect(accounts.body.data).toHaveLength(12);
      expect(accounts.headers.get("link")).toBeNull();

      const networks = accounts.body.data.map((a: { platform: string }) => a.platform);
      const post = await user.createPost({
        caption: "Everywhere",
        platforms: networks,
        media: "https://cdn.example.com/a.mp4",
      });
      const targets = await user.get(`/posts/${post.id}/targets?limit=1`);
      expect(targets.body.data).toHaveLength(12);
      expect(targets.headers.get("link")).toBeNull();

      const webhooks = await user.get("/webhooks?limit=1");
      expect(webhooks.status).toBe(200);
      expect(webhooks.headers.get("link")).toBeNull();
    });
  });
}
