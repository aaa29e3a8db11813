import { describe, expect, it } from "vitest";
import type { ServerProcess } from "../../packages/server/test/support/cli-process.ts";
import { readDatabase } from "../support/database.ts";
import { useFigures } from "../support/figures.ts";
import { call, listAllPosts } from "../support/http.ts";
import { checkNetworkSide } from "../support/network-side.ts";
import { serverStage } from "../support/server-stage.ts";
import { perStore, STORE, STORE_NAME } from "../support/store.ts";

// With live keys, ten rounds would publish more to X than it allows one account in 15 minutes.
const ROUNDS = perStore(10, 4, 4);
const CLIENTS = 8;
const figures = useFigures("kill -9 during writes");

interface Acknowledged {
  caption: string;
  platforms: string[];
  /** The status answered with the 201. */
  status: string;
  /** Due while the suite runs: published by now, exactly once per network. */
  dueSoon: boolean;
  idempotencyKey: string | null;
  body: Record<string, unknown>;
}

/** A keyed create the kill cut off: no answer came, so the client retries it with its key. */
interface CutOff {
  caption: string;
  idempotencyKey: string;
  body: Record<string, unknown>;
}

const NETWORK_SETS = [["x"], ["x", "bluesky"], ["linkedin", "threads", "bluesky"]];

describe(`kill -9 during a burst of writes, ${STORE_NAME} store`, () => {
  it(`every post answered 201 is there after each of ${ROUNDS} kills, nothing is half-made, nothing invented, usage counted`, async () => {
    const stage = await serverStage(figures, "kill");
    const { key } = stage;

    const acknowledged = new Map<string, Acknowledged>();
    const deleted = new Set<string>();
    /** Deletes that got no answer: the post may or may not be gone. */
    const maybeDeleted = new Set<string>();
    /** Every caption sent: a post with any other caption was invented. */
    const captionsSent = new Set<string>();
    const cutOff: CutOff[] = [];
    let answered = 0;
    let seq = 0;

    /** The state after a restart, through the API: every acknowledged post, none deleted, none invented. */
    async function verify(server: ServerProcess): Promise<void> {
      const listed = new Map((await listAllPosts(figures, server, key)).map((p) => [p.id, p]));
      for (const [id, ack] of acknowledged) {
        if (deleted.has(id)) {
          expect(listed.has(id), `${id} was deleted (200) and is listed`).toBe(false);
          continue;
        }
        figures.postsChecked++;
        const post = listed.get(id);
        if (!post) {
          if (maybeDeleted.has(id)) continue;
          figures.lost++;
          continue;
        }
        expect(post.caption).toBe(ack.caption);
        expect(post.platforms).toEqual(ack.platforms);
        // A post still publishing when answered (live networks take their time) may have finished since.
        if (ack.status === "publishing") expect(["publishing", "published"], id).toContain(post.status);
        else if (ack.status !== "scheduled" || !ack.dueSoon)
          expect([ack.status, id]).toEqual([post.status, id]);
      }
      for (const post of listed.values()) expect(captionsSent.has(post.caption), post.caption).toBe(true);
    }

    for (let round = 0; round < ROUNDS; round++) {
      const server = await stage.start();
      await verify(server);

      const killAfter = 15 + ((round * 7) % 25);
      let acksThisRound = 0;
      let killed = false;
      const client = async () => {
        while (!killed) {
          const n = seq++;
          const caption = `round ${round} write ${n}`;
          const platforms = NETWORK_SETS[n % NETWORK_SETS.length]!;
          const alive = [...acknowledged.keys()].filter((id) => !deleted.has(id) && !maybeDeleted.has(id));
          // Only a request that got no answer is forgiven once the kill is under way (it was in flight
          // when the process died, so nothing is owed); any answer it did get must be the right one.
          const unanswered = (error: unknown) => {
            if (!killed) throw error;
            return null;
          };
          if (n % 4 === 3 && alive.length > 0) {
            const id = alive[(n * 31) % alive.length]!;
            maybeDeleted.add(id);
            const res = await call(figures, server, key, "DELETE", `/posts/${id}`).catch(unanswered);
            if (!res) continue;
            answered++;
            expect([200, 404]).toContain(res.status);
            if (res.status === 200) {
              deleted.add(id);
              maybeDeleted.delete(id);
            }
            continue;
          }
          const kind = n % 5;
          const body: Record<string, unknown> = { caption, platforms };
          if (kind === 1) body.schedule_at = Date.now() + 3_600_000;
          if (kind === 2) body.schedule_at = Date.now() + 300;
          if (kind === 3) body.draft = true;
          const idempotencyKey = n % 2 === 0 ? `kill-${n}` : null;
          captionsSent.add(caption);
          const res = await call(figures, server, key, "POST", "/posts", {
            body,
            ...(idempotencyKey && { headers: { "idempotency-key": idempotencyKey } }),
          }).catch(unanswered);
          if (res) {
            answered++;
            expect(res.status, res.text).toBe(201);
            acknowledged.set(res.body.id, {
              caption,
              platforms,
              status: res.body.status,
              dueSoon: kind === 2,
              idempotencyKey,
              body,
            });
            acksThisRound++;
          } else if (idempotencyKey) {
            cutOff.push({ caption, idempotencyKey, body });
          }
          if (acksThisRound >= killAfter && !killed) {
            killed = true;
            server.child.kill("SIGKILL");
            figures.faults++;
          }
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, client));
      expect(await server.stop()).toBe("SIGKILL");
    }

    const server = await stage.start();
    await verify(server);
    // Posts that fell due during the rounds publish once a server runs.
    const dueSoon = [...acknowledged].filter(
      ([id, ack]) => ack.dueSoon && !deleted.has(id) && !maybeDeleted.has(id),
    );
    const deadline = Date.now() + perStore(30_000, 30_000, 120_000);
    for (;;) {
      const statuses = new Map((await listAllPosts(figures, server, key)).map((p) => [p.id, p.status]));
      if (dueSoon.every(([id]) => statuses.get(id) === "published") || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // An acknowledged keyed create replays its post after all the kills.
    for (const [id, ack] of acknowledged) {
      if (!ack.idempotencyKey || deleted.has(id) || maybeDeleted.has(id)) continue;
      const retry = await call(figures, server, key, "POST", "/posts", {
        body: ack.body,
        headers: { "idempotency-key": ack.idempotencyKey },
      });
      expect([retry.status, retry.body.id, retry.headers.get("idempotent-replayed")]).toEqual([
        201,
        id,
        "true",
      ]);
    }
    // A keyed create the kill cut off, retried with its key: the post it wrote (replayed), or, when
    // the kill came before it wrote anything, a new one — never a second.
    const before = new Map((await listAllPosts(figures, server, key)).map((p) => [p.caption, p.id]));
    const refusedAsPast = new Set<string>();
    const stillClaimed = new Set<string>();
    for (const cut of cutOff) {
      const retry = await call(figures, server, key, "POST", "/posts", {
        body: cut.body,
        headers: { "idempotency-key": cut.idempotencyKey },
      });
      const written = before.get(cut.caption);
      // On PostgreSQL a key whose request died with its instance before writing anything stays claimed
      // for its in-flight lease (IN_FLIGHT_TTL_MS, 5 minutes), since on another instance the same
      // request could still be running: the retry is told to retry shortly (the key is checked before the
      // body, so also when its due time has passed), and nothing was written.
      if (!written && STORE === "postgres" && retry.status === 409) {
        expect(retry.body.error, cut.caption).toBe(
          "A request with this Idempotency-Key is still in progress; retry it shortly.",
        );
        stillClaimed.add(cut.caption);
        figures.postsChecked++;
        continue;
      }
      // A scheduled create the kill cut off before it wrote anything is a new request when retried:
      // on a slow run its due time may have passed the skew by now, and refusing it is then right.
      const dueAt = typeof cut.body.schedule_at === "number" ? cut.body.schedule_at : null;
      if (!written && dueAt !== null && dueAt < Date.now() - 60_000) {
        expect([retry.status, retry.body.error], cut.caption).toEqual([
          400,
          expect.stringContaining("in the past"),
        ]);
        refusedAsPast.add(cut.caption);
        continue;
      }
      expect(retry.status, retry.text).toBe(201);
      expect(retry.body.caption).toBe(cut.caption);
      expect([retry.headers.get("idempotent-replayed"), retry.body.id], cut.caption).toEqual(
        written ? ["true", written] : [null, retry.body.id],
      );
      figures.postsChecked++;
    }
    const captions = (await listAllPosts(figures, server, key)).map((p) => p.caption);
    expect(
      captions.filter((caption, i) => captions.indexOf(caption) !== i),
      "posted twice",
    ).toEqual([]);
    for (const cut of cutOff) {
      if (stillClaimed.has(cut.caption)) expect(captions, cut.caption).not.toContain(cut.caption);
      else if (!refusedAsPast.has(cut.caption)) expect(captions, cut.caption).toContain(cut.caption);
    }
    // With live keys: each post that went out is on each of its networks once.
    const wentOut = [...acknowledged].filter(
      ([id, ack]) =>
        !deleted.has(id) &&
        !maybeDeleted.has(id) &&
        ack.status !== "draft" &&
        (ack.status !== "scheduled" || ack.dueSoon),
    );
    const excused = await checkNetworkSide(figures, stage, server, wentOut);
    const me = await call(figures, server, key, "GET", "/me");
    const userId = me.body.id as string;
    expect(await server.stop("SIGTERM")).toBe(0);

    await readDatabase(stage.db, async (db) => {
      expect(await db.halfMadePosts()).toEqual([]);
      // Published exactly once per network, however many kills came in between; drafts never.
      const published = await db.publishedEvents();
      for (const [id, ack] of acknowledged) {
        if (deleted.has(id) || maybeDeleted.has(id) || (ack.status === "scheduled" && !ack.dueSoon)) continue;
        const out = ack.platforms.filter((p) => !excused.get(id)?.has(p));
        const expected = ack.status === "draft" || out.length === 0 ? undefined : out.sort();
        expect(published.get(id), `post.published events of ${id}`).toEqual(expected);
      }
      // Every answered request was counted, and no request was counted twice.
      const counted = await db.countedApiCalls(userId);
      expect(counted).toBeGreaterThanOrEqual(answered);
      expect(counted).toBeLessThanOrEqual(figures.requests);
    });
    expect(figures.faults).toBe(ROUNDS);
    expect(cutOff.length, "keyed creates cut off by the kills").toBeGreaterThan(0);
    expect(acknowledged.size).toBeGreaterThanOrEqual(ROUNDS * 15);
  });
});
