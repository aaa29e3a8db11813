import type { PostRecord } from "@socialpub/core";
import type { PostgresCore } from "./core.ts";
import { finishManyTargets, type TargetFinish } from "./publishing.ts";

/** Posts written in one group at most: bounds a statement's size and a transaction's locks. */
const GROUP_MOST = 100;
/** Groups written at once: one may wait on the database while the next gathers. */
const GROUPS_AT_ONCE = 2;

interface Queued {
  finish: TargetFinish;
  resolve: (post: PostRecord | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Store.finishTargets as a group commit: the outcomes of publishes that finish together (the calls of
 * one turn of the event loop, and those made while the groups before them are being written) are
 * written in one transaction, one statement per table for all of them (finishManyTargets), instead of
 * a transaction of about seven statements each. At the top of the hour hundreds of publishes finish
 * within a few milliseconds of each other; each one's round trips would otherwise queue for the pool's
 * connections on busy cores.
 *
 * What stays as it was: no caller learns its result before the commit that holds it; a post named by
 * two calls goes in two groups, one after the other, as two calls would; and when a group fails, each
 * of its posts is written again alone, so a call fails only for a reason of its own (an idempotency key
 * another request holds), never for another post's.
 */
export class FinishGroups {
  readonly #core: PostgresCore;
  #queue: Queued[] = [];
  #writing = 0;
  #scheduled = false;

  constructor(core: PostgresCore) {
    this.#core = core;
  }

  finish(finish: TargetFinish): Promise<PostRecord | null> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ finish, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // The calls of this turn, microtasks included, join the same group.
        setImmediate(() => {
          this.#scheduled = false;
          this.#start();
        });
      }
    });
  }

  #start(): void {
    while (this.#writing < GROUPS_AT_ONCE && this.#queue.length > 0) {
      const group = this.#takeGroup();
      this.#writing += 1;
      void this.#write(group).finally(() => {
        this.#writing -= 1;
        this.#start();
      });
    }
  }

  /** The first calls waiting, one per post, up to GROUP_MOST; the others keep their place. */
  #takeGroup(): Queued[] {
    const group: Queued[] = [];
    const posts = new Set<string>();
    const left: Queued[] = [];
    for (const queued of this.#queue) {
      if (group.length < GROUP_MOST && !posts.has(queued.finish.postId)) {
        posts.add(queued.finish.postId);
        group.push(queued);
      } else left.push(queued);
    }
    this.#queue = left;
    return group;
  }

  async #write(group: Queued[]): Promise<void> {
    let settled: (PostRecord | null)[];
    try {
      settled = await finishManyTargets(
        this.#core,
        group.map((q) => q.finish),
      );
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      // Nothing of the group was written: each post alone, so each call gets its own answer.
      await Promise.all(
        group.map(async (q) => {
          try {
            const [alone] = await finishManyTargets(this.#core, [q.finish]);
            q.resolve(alone!);
          } catch (own) {
            q.reject(own);
          }
        }),
      );
      return;
    }
    for (const [i, q] of group.entries()) q.resolve(settled[i]!);
  }
}
