import type { Store } from "@socialpub/core";
import { expect } from "vitest";
import { api } from "./cli-process.ts";

const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

export interface DeleteRaceOptions {
  server: { url: string };
  apiKey: string;
  rounds: number;
  /** Posts scheduled for each round's due instant, each deleted around it. */
  postsPerRound: number;
}

/**
 * Schedules posts for one instant and DELETEs them one every 2 ms, from shortly before that instant to
 * shortly after, so some DELETEs reach the store before the scheduler and some after. Every DELETE must
 * answer 200. Returns the ids; `expectCleanOutcomes` then checks how each race ended.
 */
export async function raceDeletesAgainstScheduler(options: DeleteRaceOptions): Promise<string[]> {
  const { server, apiKey, postsPerRound } = options;
  const ids: string[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const due = Date.now() + 700;
    const created = await Promise.all(
      Array.from({ length: postsPerRound }, (_, i) =>
        api(server, apiKey, "POST", "/posts", {
          caption: `race ${round}.${i}`,
          platforms: ["x", "bluesky"],
          schedule_at: due,
        }),
      ),
    );
    const roundIds = created.map((res) => {
      expect(res.status).toBe(201);
      return res.body.id as string;
    });
    const deleted = await Promise.all(
      roundIds.map((id, i) =>
        sleepUntil(due - postsPerRound + i * 2).then(() => api(server, apiKey, "DELETE", `/posts/${id}`)),
      ),
    );
    deleted.forEach((res, i) => {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: true, id: roundIds[i] });
    });
    ids.push(...roundIds);
  }
  return ids;
}

/**
 * Each race ended cleanly: one post.deleted; either the post was cancelled (scheduled or publishing)
 * and never published, or it published on every network first and its record was then removed. No
 * post.failed, no record left, nothing due. Returns how many posts the scheduler published first.
 */
export async function expectCleanOutcomes(store: Store, userId: string, ids: string[]): Promise<number> {
  const events = await store.listEvents(userId);
  let publishedFirst = 0;
  for (const id of ids) {
    const about = events.filter((e) => (e.data as { post_id?: string }).post_id === id);
    const deletions = about.filter((e) => e.type === "post.deleted");
    const published = about.filter((e) => e.type === "post.published");
    expect(deletions).toHaveLength(1);
    const previous = (deletions[0]!.data as { previous_status: string }).previous_status;
    if (previous === "published") {
      publishedFirst++;
      expect(published.map((e) => (e.data as { platform: string }).platform).sort()).toEqual([
        "bluesky",
        "x",
      ]);
    } else {
      expect(["scheduled", "publishing"]).toContain(previous);
      expect(published).toEqual([]);
    }
    expect(about.filter((e) => e.type === "post.failed")).toEqual([]);
    expect(await store.getPost(userId, id)).toBeNull();
  }
  expect(await store.nextDueAt()).toBeNull();
  return publishedFirst;
}
