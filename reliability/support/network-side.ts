import { expect } from "vitest";
import { until } from "../../packages/server/test/support/oauth-browser.ts";
import type { Figures } from "./figures.ts";
import { call } from "./http.ts";
import type { ServerStage } from "./server-stage.ts";

/** A post whose publishing a scenario checks on the networks' side. */
export interface SentPost {
  caption: string;
  platforms: readonly string[];
}

interface SettledTarget {
  platform: string;
  status: string;
  text: string;
  error: string | null;
}

/**
 * With live keys, what the networks hold for each post once its targets have settled (up to
 * `waitMs`; the networks' pacing spaces a burst out): a target the service says published is on its
 * network exactly once, counted on the fake or the PDS by the text it was given. A target the service
 * failed as "outcome unknown" is one a kill cut off on a network that cannot be asked what it holds
 * (LinkedIn): it is there at most once, never twice. Anything else (failed otherwise, never settled) is
 * lost. Answers, per post, the networks excused that way from `post.published`. In the sandbox no
 * network is asked, nothing is excused, and the scenarios' own checks of the outbox stand alone.
 */
export async function checkNetworkSide(
  figures: Figures,
  stage: ServerStage,
  server: { url: string },
  posts: Iterable<[string, SentPost]>,
  waitMs = 180_000,
): Promise<Map<string, Set<string>>> {
  const excused = new Map<string, Set<string>>();
  const { peers } = stage;
  if (!peers) return excused;
  const end = Date.now() + waitMs;
  for (const [id, post] of posts) {
    const targets: SettledTarget[] = await until(
      async () => (await call(figures, server, stage.key, "GET", `/posts/${id}/targets`)).body.data,
      (data: SettledTarget[]) => data.every((t) => t.status !== "pending"),
      Math.max(0, end - Date.now()),
    );
    expect(targets.map((t) => t.platform).sort(), id).toEqual([...post.platforms].sort());
    for (const target of targets) {
      figures.postsChecked++;
      const held = await peers.count(target.platform as never, target.text);
      if (target.status === "published") {
        expect(held, `${target.platform} holds "${target.text}" (${id})`).toBe(1);
      } else if (target.status === "failed" && /outcome unknown/.test(target.error ?? "")) {
        expect(held, `${target.platform} holds "${target.text}" (${id})`).toBeLessThanOrEqual(1);
        excused.set(id, (excused.get(id) ?? new Set()).add(target.platform));
      } else {
        figures.lost++;
        expect.soft(target, `${target.platform} of ${id}`).toMatchObject({ status: "published" });
      }
    }
  }
  return excused;
}
