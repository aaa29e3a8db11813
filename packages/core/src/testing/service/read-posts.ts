import { describe, expect, it } from "vitest";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import { expectPostShape } from "./create-post.ts";
import { type ApiUser, type Harness, ORIGIN } from "./harness.ts";

const ids = (body: { data: { id: string }[] }) => body.data.map((p) => p.id);

async function createMany(user: ApiUser, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push((await user.createPost({ caption: `post ${i}`, platforms: ["x"] })).id);
  return out;
}

export function readPostsTests(h: Harness): void {
  describe("GET /posts", () => {
    it("answers { data: [...] } with the account's posts, most recent first (creation order, even within one millisecond)", async () => {
      const user = await h.user();
      const created = await createMany(user, 3);
      const res = await user.get("/posts");
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["data"]);
      expect(ids(res.body)).toEqual([...created].reverse());
      for (const post of res.body.data) expectPostShape(post);
    });

    it("orders by creation, not by due or publish time", async () => {
      const user = await h.user();
      const first = await user.createPost({
        caption: "far",
        platforms: ["x"],
        schedule_at: h.clock.now() + 86_400_000,
      });
      await h.clock.advance(1000);
      const second = await user.createPost({ caption: "now", platforms: ["x"] });
      expect(ids((await user.get("/posts")).body)).toEqual([second.id, first.id]);
    });

    it("status filters by a comma-separated list of statuses", async () => {
      const user = await h.user();
      const published = await user.createPost({ caption: "p", platforms: ["x"] });
      const scheduled = await user.createPost({
        caption: "s",
        platforms: ["x"],
        schedule_at: h.clock.now() + 3_600_000,
      });
      const draft = await user.createPost({ caption: "d", platforms: ["x"], draft: true });
      expect(ids((await user.get("/posts?status=scheduled")).body)).toEqual([scheduled.id]);
      expect(ids((await user.get("/posts?status=published,draft")).body)).toEqual([draft.id, published.id]);
      expect(ids((await user.get("/posts?status=draft,%20published")).body)).toEqual([
        draft.id,
        published.id,
      ]);
    });

    it("unknown status values are ignored; a filter left empty returns all", async () => {
      const user = await h.user();
      const published = await user.createPost({ caption: "p", platforms: ["x"] });
      const scheduled = await user.createPost({
        caption: "s",
        platforms: ["x"],
        schedule_at: h.clock.now() + 3_600_000,
      });
      expect(ids((await user.get("/posts?status=scheduled,queued")).body)).toEqual([scheduled.id]);
      for (const q of ["?status=queued", "?status=", "?status=,,", ""]) {
        const res = await user.get(`/posts${q}`);
        expect(res.status).toBe(200);
        expect(ids(res.body), q).toEqual([scheduled.id, published.id]);
      }
    });

    it("limit caps the number of posts returned; the default is 20", async () => {
      const user = await h.user();
      const created = await createMany(user, 25);
      expect(ids((await user.get("/posts")).body)).toEqual([...created].reverse().slice(0, 20));
      expect(ids((await user.get("/posts?limit=5")).body)).toEqual([...created].reverse().slice(0, 5));
      expect((await user.get("/posts?limit=1")).body.data).toHaveLength(1);
    });

    // Sandbox only: publishes more posts than X lets one account make in 15 minutes.
    it.skipIf(h.live)("a limit above 100 is clamped to 100", async () => {
      const user = await h.user();
      await createMany(user, 101);
      expect((await user.get("/posts?limit=1000")).body.data).toHaveLength(100);
      expect((await user.get("/posts?limit=100")).body.data).toHaveLength(100);
    });

    it("a limit that is not a positive integer answers 400", async () => {
      const user = await h.user();
      for (const limit of ["0", "-1", "abc", "1.5", "", "1e2"]) {
        const res = await user.get(`/posts?limit=${encodeURIComponent(limit)}`);
        expect(res.status, limit).toBe(400);
        expect(res.body.error).toBe(`limit must be a positive integer (1 to 100); got "${limit}".`);
      }
    });

    it('the next page is linked with Link: <…>; rel="next" and an opaque cursor, until the last page', async () => {
      const user = await h.user();
      const created = [...(await createMany(user, 5))].reverse();
      const seen: string[] = [];
      let path: string | null = "/posts?limit=2";
      let pages = 0;
      while (path) {
        const res = await user.get(path);
        expect(res.status).toBe(200);
        seen.push(...ids(res.body));
        pages++;
        const link = res.headers.get("link");
        const match = link ? /^<([^>]+)>; rel="next"$/.exec(link) : null;
        if (link) expect(match, link).not.toBeNull();
        path = match
          ? `${ORIGIN}${new URL(match[1]!, ORIGIN).pathname}${new URL(match[1]!, ORIGIN).search}`
          : null;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(created);
    });

    it("the cursor keeps the status filter", async () => {
      const user = await h.user();
      const drafts: string[] = [];
      for (let i = 0; i < 3; i++) {
        drafts.unshift((await user.createPost({ caption: `d${i}`, platforms: ["x"], draft: true })).id);
        await user.createPost({ caption: `p${i}`, platforms: ["x"] });
      }
      const first = await user.get("/posts?status=draft&limit=2");
      expect(ids(first.body)).toEqual(drafts.slice(0, 2));
      const next = /<([^>]+)>/.exec(first.headers.get("link") ?? "")![1]!;
      const second = await user.get(
        `${ORIGIN}${new URL(next, ORIGIN).pathname}${new URL(next, ORIGIN).search}`,
      );
      expect(ids(second.body)).toEqual(drafts.slice(2));
      expect(second.headers.get("link")).toBeNull();
    });

    it("an invalid cursor answers 400", async () => {
      const user = await h.user();
      const res = await user.get("/posts?cursor=not-a-cursor");
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: "cursor is not valid; follow the URL in the Link header of the previous page.",
      });
    });

    it("lists only the caller's posts", async () => {
      const alice = await h.user();
      const bob = await h.user();
      const mine = await alice.createPost({ caption: "alice", platforms: ["x"] });
      await bob.createPost({ caption: "bob", platforms: ["x"] });
      expect(ids((await alice.get("/posts")).body)).toEqual([mine.id]);
    });
  });

  describe("GET /posts/{id}", () => {
    it("an unknown id answers 404 Post not found.", async () => {
      const user = await h.user();
      for (const id of ["post_01J00000000000000000000000", "nope"]) {
        const res = await user.get(`/posts/${id}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: CONTRACT_MESSAGES.postNotFound });
      }
    });

    it("tenant isolation: another user's post answers 404 exactly like an unknown id", async () => {
      const alice = await h.user();
      const bob = await h.user();
      const post = await alice.createPost({ caption: "mine", platforms: ["x"] });
      for (const path of [`/posts/${post.id}`, `/posts/${post.id}/targets`]) {
        const res = await bob.get(path);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: CONTRACT_MESSAGES.postNotFound });
      }
      const del = await bob.delete(`/posts/${post.id}`);
      expect(del.status).toBe(404);
      expect(del.body).toEqual({ error: CONTRACT_MESSAGES.postNotFound });
      expect((await alice.get(`/posts/${post.id}`)).status).toBe(200);
    });
  });
}
