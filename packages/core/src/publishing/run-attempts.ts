import type { NetworkId } from "../contract/networks.ts";
import { newId } from "../ids.ts";
import type { ServiceDeps } from "../service/context.ts";
import { settledPost } from "../store/settle.ts";
import type { IdempotencyAnswer, NewEvent, PostRecord, TargetRecord } from "../store/types.ts";
import {
  type AccountReader,
  type AttemptOutcome,
  accountsReadOnce,
  attemptTarget,
} from "./attempt-target.ts";

export interface Published {
  /** The post after publishing, or null when it was deleted while it was being published. */
  post: PostRecord | null;
  targets: TargetRecord[];
}

/**
 * The answer a keyed request that publishes a post keeps for the post as written (see KeepAnswer);
 * undefined without a key.
 */
export type PostAnswer = (post: PostRecord, targets: TargetRecord[]) => IdempotencyAnswer | undefined;

/**
 * Publish now, for a new post stored in `publishing` with its first attempts begun (`begun`): fanned
 * out before the response. Should that fail, the post is handed over to the scheduler.
 */
export async function publishNow(
  deps: ServiceDeps,
  post: PostRecord,
  now: number,
  answer: PostAnswer,
  begun: Promise<BegunAttempts>,
): Promise<{ post: PostRecord; targets: TargetRecord[] }> {
  let done: Published;
  try {
    done = await runAttempts(deps, post, await begun, answer, deps.publishing.options.waitMs);
  } catch (err) {
    // Not left in `publishing` (nothing would pick it up before a restart): the scheduler retries it.
    await handOverToScheduler(deps, post.id, now, answer).catch(() => {});
    throw err;
  }
  // A DELETE that won the race removed the record; the answer still says what the networks did.
  const final = done.post ?? { ...post, ...settledPost(post, done.targets, now) };
  return { post: final, targets: done.targets };
}

/** Delay before the scheduler retries a publish-now that failed inside the request. */
export const PUBLISH_RETRY_DELAY_MS = 5_000;

/** The key of the request keeps the post as handed over: a retry replays it, scheduled, not a new one. */
export async function handOverToScheduler(
  deps: ServiceDeps,
  postId: string,
  now: number,
  answer: PostAnswer,
): Promise<void> {
  const at = now + PUBLISH_RETRY_DELAY_MS;
  const targets = await deps.store.getTargets(postId);
  const moved = await deps.store.transitionPost(
    postId,
    ["publishing"],
    { status: "scheduled", scheduled_at: at },
    undefined,
    (post) => ({ idempotency: answer(post, targets) }),
  );
  if (moved) deps.scheduler.notify(at);
}

/**
 * Publish now, for a new post whose networks all publish in place (the sandbox): every attempt is made
 * before anything is written, then the post is written once — with what its networks did, its events
 * and the request's kept answer — in one transaction.
 *
 * Writing the attempts as in flight before making them is what keeps a real network from getting a
 * post twice after a crash. An attempt that sends nothing out has nothing to repeat: a crash before the
 * write leaves no trace, no answer was sent, and the client's retry (same Idempotency-Key) makes the
 * post anew; after it, the retry replays the answer, as for any keyed write. `targets` are the post's
 * targets with their first attempt begun. The caller runs this in the user's step of the queue, where
 * the insert it replaces ran, so the plan's limits count the post as before.
 */
export async function publishInPlace(
  deps: ServiceDeps,
  post: PostRecord,
  targets: readonly TargetRecord[],
  answer: PostAnswer,
): Promise<{ post: PostRecord; targets: TargetRecord[] }> {
  const readAccount = accountsReadOnce(deps, post);
  const attempts = await Promise.all(targets.map((target) => attemptSafely(deps, post, target, readAccount)));
  const outcomes = inNetworkOrder(attempts, deps.clock.now());
  const written = outcomes.map((outcome) => outcome.target);
  const settled = { ...post, ...settledPost(post, written, deps.clock.now()) };
  await deps.store.insertPost(settled, written, {
    events: outcomes.flatMap((outcome) => outcome.events),
    idempotency: answer(settled, written),
  });
  notifyRetries(deps, outcomes);
  return { post: settled, targets: written };
}

/**
 * Publishes a post that is in `publishing` through the adapters of its mode: every network that is due
 * gets an attempt, all at once. The store marks each attempt in flight before it starts, so a crash
 * mid-attempt is known afterwards (its outcome is unknown and is checked, never blindly repeated).
 *
 * `waitMs` bounds how long this waits (a publish-now request: every network's first attempt, up to
 * 20 s). What finished by then is written in one step with the post's settled status, its events and
 * the request's kept answer; attempts still running finish in the background and write their own
 * outcome, reported by post.published / post.failed. Without `waitMs` it waits for every attempt.
 *
 * The post settles from its targets (store.finishTargets): any network published → published; all
 * failed → draft; otherwise it stays publishing while retries are pending. A post deleted meanwhile
 * stays deleted, and nothing is announced for it.
 */
export async function publishClaimedPost(
  deps: ServiceDeps,
  post: PostRecord,
  now: number,
  answer?: PostAnswer,
  waitMs?: number,
): Promise<Published> {
  return runAttempts(deps, post, await beginAttempts(deps, post, now), answer, waitMs);
}

/** The post's targets, and those of them whose attempt the store has just started (marked in flight). */
export interface BegunAttempts {
  targets: TargetRecord[];
  started: TargetRecord[];
}

/**
 * The first half of publishClaimedPost: starts an attempt for every target that is due. A publish-now
 * request does this in the same step of the user's queue as its pacing check, so a second request
 * cannot pass that check before the first one's attempts count.
 */
export async function beginAttempts(
  deps: ServiceDeps,
  post: PostRecord,
  now: number,
): Promise<BegunAttempts> {
  if (publishesInPlace(deps, post)) {
    // Nothing goes out, so nothing is guarded by writing the attempts as in flight before making them:
    // a crash before the outcome is written leaves the post publishing, and it is published again
    // (releaseInterruptedPublishing). Only where no retry is waiting: the retry worker claims those
    // targets in the store, and the store's claim is what keeps one attempt from being made twice.
    const targets = await deps.store.getTargets(post.id);
    if (targets.every((t) => t.next_attempt_at === null)) {
      const started = targets
        .filter((t) => t.status === "pending" && !t.in_flight)
        .map((t) => begunInPlace(t, now));
      return { targets, started };
    }
  }
  if (deps.store.beginAllAttempts) return deps.store.beginAllAttempts(post.id, now);
  const targets = await deps.store.getTargets(post.id);
  const started = await deps.store.beginTargetAttempts(
    post.id,
    targets.map((t) => t.platform),
    now,
  );
  return { targets, started };
}

/** The second half of publishClaimedPost: makes the attempts begun and writes what they came to. */
export async function runAttempts(
  deps: ServiceDeps,
  post: PostRecord,
  { targets, started }: BegunAttempts,
  answer?: PostAnswer,
  waitMs?: number,
): Promise<Published> {
  const { store, clock, publishing } = deps;
  const current = new Map(targets.map((t) => [t.platform, t] as const));
  for (const t of started) current.set(t.platform, t);

  const readAccount = started.length > 1 ? accountsReadOnce(deps, post) : undefined;
  const attempts = started.map((target) => attemptSafely(deps, post, target, readAccount));
  const done = new Map<number, AttemptOutcome>();
  attempts.forEach((attempt, i) => {
    void attempt.then((outcome) => done.set(i, outcome));
  });
  await waitFor(Promise.all(attempts), waitMs, clock);

  const finishedNow = new Set(done.keys());
  const finished = inNetworkOrder(
    [...done.entries()].sort(([a], [b]) => a - b).map(([, outcome]) => outcome),
    clock.now(),
  );
  for (const outcome of finished) current.set(outcome.target.platform, outcome.target);
  const written = [...current.values()];
  const write = () =>
    store.finishTargets(
      post.id,
      finished.map((o) => o.target),
      clock.now(),
      (settledPost, stored) => ({
        events: eventsOfWritten(finished, stored),
        idempotency: answer?.(settledPost, written),
      }),
    );
  // The outcomes exist only here until written: a write that fails is tried once more before giving
  // up; what then stays in flight is recovered once its lease runs out (in-flight-sweep.ts).
  const settled = await write()
    .catch((err) => {
      deps.logger.warn({ err, post_id: post.id }, "writing what the networks did failed; trying once more");
      return write();
    })
    .catch((err) => {
      if (finished.length > 0) publishing.inFlight.leftInFlight(clock.now());
      throw err;
    });
  notifyRetries(deps, finished);

  // What did not finish in time writes its own outcome when it does.
  attempts.forEach((attempt, i) => {
    if (finishedNow.has(i)) return;
    const tail = attempt
      .then(async (outcome) => {
        await store.finishTargets(post.id, [outcome.target], clock.now(), (_, stored) => ({
          events: eventsOfWritten([outcome], stored),
        }));
        notifyRetries(deps, [outcome]);
      })
      .catch((err) => {
        deps.logger.error({ err, post_id: post.id }, "recording a network's outcome failed");
        publishing.inFlight.leftInFlight(clock.now());
      })
      .finally(() => publishing.background.delete(tail));
    publishing.background.add(tail);
  });
  return { post: settled, targets: written };
}

/**
 * The events of the outcomes the store wrote. One it did not write announces nothing: another attempt
 * settled that network first (an instance that took the post over while this write waited on the
 * database), and that attempt's events announced it.
 */
function eventsOfWritten(outcomes: readonly AttemptOutcome[], written: ReadonlySet<NetworkId>): NewEvent[] {
  return outcomes.filter((o) => written.has(o.target.platform)).flatMap((o) => o.events);
}

/**
 * Outcomes, given in the order of the post's networks, with their events' ids made in that order,
 * whatever order the networks answered in: the fan-out announces them so.
 */
export function inNetworkOrder(outcomes: readonly AttemptOutcome[], now: number): AttemptOutcome[] {
  return outcomes.map((outcome) => ({
    ...outcome,
    events: outcome.events.map((event) => ({ ...event, id: newId("evt", now) })),
  }));
}

/** Makes an attempt of a target the retry worker claimed, and writes what it came to. */
export async function retryClaimedTarget(
  deps: ServiceDeps,
  post: PostRecord,
  target: TargetRecord,
): Promise<void> {
  const outcome = await attemptSafely(deps, post, target);
  try {
    await deps.store.finishTargets(post.id, [outcome.target], deps.clock.now(), (_, stored) => ({
      events: eventsOfWritten([outcome], stored),
    }));
  } catch (err) {
    deps.publishing.inFlight.leftInFlight(deps.clock.now());
    throw err;
  }
  notifyRetries(deps, [outcome]);
}

/**
 * attemptTarget, with a failure of the service itself (the store unreachable before anything was sent,
 * or while recording that an account needs reconnecting) turned into a retry in a few seconds that does
 * not count as one of the network's attempts: nothing reached the network, or what did is asked again.
 */
export async function attemptSafely(
  deps: ServiceDeps,
  post: PostRecord,
  target: TargetRecord,
  readAccount?: AccountReader,
): Promise<AttemptOutcome> {
  try {
    return await attemptTarget(deps, post, target, readAccount);
  } catch (err) {
    deps.logger.error(
      { err, post_id: post.id, platform: target.platform },
      "an attempt could not be made; retrying soon",
    );
    return {
      target: {
        ...target,
        in_flight: false,
        attempts: Math.max(0, target.attempts - 1),
        next_attempt_at: deps.clock.now() + SERVICE_RETRY_DELAY_MS,
      },
      events: [],
    };
  }
}

/** Delay before an attempt the service itself could not make is made again. */
export const SERVICE_RETRY_DELAY_MS = 5_000;

export function notifyRetries(deps: ServiceDeps, outcomes: readonly AttemptOutcome[]): void {
  for (const { target } of outcomes) {
    if (target.status === "pending" && target.next_attempt_at !== null) {
      deps.publishing.retries.notify(target.next_attempt_at);
    }
    if (target.metrics_due_at !== null) deps.publishing.metrics.notify(target.metrics_due_at);
  }
}

/** Resolves when `work` settles or `ms` passes, whichever is first (never rejects). */
function waitFor(work: Promise<unknown>, ms: number | undefined, clock: ServiceDeps["clock"]): Promise<void> {
  const settled = work.then(
    () => {},
    () => {},
  );
  if (ms === undefined) return settled;
  return new Promise<void>((resolve) => {
    const timer = clock.setTimeout(resolve, ms);
    void settled.then(() => {
      clock.clearTimeout(timer);
      resolve();
    });
  });
}

/** True when every network of the post publishes in place: through an adapter that sends nothing out. */
export function publishesInPlace(deps: ServiceDeps, post: PostRecord): boolean {
  return post.platforms.every((platform) => deps.publishing.adapterFor(post.mode, platform)?.local === true);
}

/**
 * A target with an attempt begun, as the store's beginTargetAttempts would write it, for an attempt
 * that is made before anything is written: one that publishes in place has nothing to guard by being
 * marked in flight first (see publishInPlace).
 */
export function begunInPlace(target: TargetRecord, now: number): TargetRecord {
  return {
    ...target,
    in_flight: true,
    attempts: target.attempts + 1,
    attempted_at: now,
    next_attempt_at: null,
  };
}
