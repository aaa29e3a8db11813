import {
  createService,
  newId,
  type PostRecord,
  provisionUser,
  silentLogger,
  type TargetRecord,
} from "@socialpub/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { newDatabase } from "./support/databases.ts";

/*
 * Two instances on one database: a network's attempt failed on one of them, which wrote a retry due in
 * a second and then never made it (it died, or was stopped). The other instance, whose retry worker was
 * armed for nothing, must be woken for it (NOTIFY) and make the retry: no instance polls the store.
 */

let url: string;
let writer: PostgresStore;
let other: PostgresStore;

beforeAll(async () => {
  url = await newDatabase("retry");
  writer = await openPostgresStore(url, { poolSize: 2 });
  other = await openPostgresStore(url, { poolSize: 2 });
}, 60_000);

afterAll(async () => {
  await writer?.close();
  await other?.close();
});

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it("a retry one instance scheduled wakes another instance's retry worker, which makes it", async () => {
  const service = createService({ store: other, logger: silentLogger });
  await service.start();
  try {
    // Nothing is due anywhere: the other instance's retry worker holds no timer.
    expect(await other.nextTargetAttemptAt()).toBeNull();

    const { user } = await provisionUser(writer, { plan: "studio", accounts: ["x"] });
    const now = Date.now();
    const post: PostRecord = {
      id: newId("post", now),
      user_id: user.id,
      mode: "test",
      caption: "Retried elsewhere",
      platforms: ["x"],
      status: "publishing",
      media: null,
      scheduled_at: now,
      published_at: null,
      created_at: now,
    };
    const inFlight: TargetRecord = {
      post_id: post.id,
      platform: "x",
      status: "pending",
      text: post.caption,
      permalink: null,
      error: null,
      published_at: null,
      reach: 0,
      likes: 0,
      comments: 0,
      shares: 0,
      attempts: 1,
      attempted_at: now,
      in_flight: true,
      outcome_unknown: false,
      next_attempt_at: null,
      remote_id: null,
      publish_step: null,
      metrics_due_at: null,
      metrics_reads: 0,
    };
    await writer.insertPost(post, [inFlight]);
    // What the first instance writes when the network asked it to try again in a second.
    await writer.finishTargets(
      post.id,
      [{ ...inFlight, in_flight: false, next_attempt_at: Date.now() + 1000 }],
      Date.now(),
    );

    await waitUntil(
      "the other instance to make the retry",
      async () => (await other.getTargets(post.id))[0]?.status === "published",
      20_000,
    );
    const [target] = await other.getTargets(post.id);
    expect(target).toMatchObject({ status: "published", attempts: 2, in_flight: false });
    expect((await other.getPost(user.id, post.id))?.status).toBe("published");
  } finally {
    await service.close();
  }
}, 60_000);
