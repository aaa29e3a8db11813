import { NETWORK_RULES, type NetworkId } from "../contract/networks.ts";
import { newId } from "../ids.ts";
import {
  type AccountSession,
  type MediaFile,
  type NetworkAdapter,
  NetworkError,
  type PublishedPost,
  type PublishStep,
} from "../networks/adapter.ts";
import { postMedia } from "../posting/content.ts";
import { describedMedia } from "../posting/media-view.ts";
import { optionsFor, planPoll } from "../posting/plan.ts";
import { accountEvent } from "../service/account-event.ts";
import type { ServiceDeps } from "../service/context.ts";
import type {
  AccountRecord,
  FirstCommentRecord,
  MediaRef,
  NewEvent,
  PartRecord,
  PostRecord,
  TargetRecord,
} from "../store/types.ts";
import { AccountCredentials } from "./account-credentials.ts";
import { fetchPostMedia } from "./fetch-media.ts";
import { pacedUntil } from "./pacing.ts";
import { PublishSteps } from "./publish-steps.ts";
import { nextAttemptAt } from "./retry-policy.ts";
import { sentParts } from "./thread.ts";

/** Reads the account a post has on a network; null when none is connected. */
export type AccountReader = (platform: NetworkId) => Promise<AccountRecord | null>;

/**
 * An AccountReader for all of a post's attempts made together: the accounts are read once for every
 * network, not once each. Should the read fail, each attempt fails as it would had it read its own (and
 * is made again soon: attemptSafely).
 */
export function accountsReadOnce(deps: ServiceDeps, post: PostRecord): AccountReader {
  const accounts = deps.store.listAccounts(post.user_id, post.mode);
  accounts.catch(() => {}); // awaited by every attempt; this only keeps the failure from going unhandled
  return async (platform) => (await accounts).find((account) => account.platform === platform) ?? null;
}

/** What one attempt came to: the target as it now stands, and the events to write with it. */
export interface AttemptOutcome {
  target: TargetRecord;
  events: NewEvent[];
}

/**
 * Makes one attempt of a target the store has marked in flight, through the adapter of the post's
 * mode, and says what it came to. Never throws: every failure is a target outcome. The outcome is not
 * written here; the caller writes it with the post's status (store.finishTargets).
 *
 * Never twice: an attempt whose outcome is unknown (no answer after sending, or a server stopped mid
 * attempt) is followed by asking the network whether the post is there, where the adapter can
 * (`findPublished`); where it cannot, the target fails as "outcome unknown: check the network" rather
 * than posting again. A publish in several steps saves its progress on the target as it goes
 * (`publish_step`, see publish-steps.ts); the next attempt resumes from it, and the adapter, which
 * can look at its own saved container, decides whether anything is left to send.
 *
 * `readAccount` reads the post's account on the target's network (null: not connected) where the
 * caller has read several at once; by default it is read from the store here.
 */
export async function attemptTarget(
  deps: ServiceDeps,
  post: PostRecord,
  target: TargetRecord,
  readAccount?: AccountReader,
): Promise<AttemptOutcome> {
  const steps = new PublishSteps(deps, target);
  const outcome = await attemptWith(deps, post, target, steps, readAccount);
  // The outcome carries the progress saved during this attempt; once published, there is none left.
  const publish_step = outcome.target.status === "published" ? null : steps.saved;
  // A thread that stopped part way: the parts sent are published, the one that failed says so, the
  // rest wait for a retry, which continues from the first part not published (publishing/thread.ts).
  if (outcome.target.status !== "published" && outcome.target.parts) {
    outcome.target = { ...outcome.target, parts: partsSoFar(outcome.target, steps.current()) };
  }
  // An attempt made is timed from when it ended: whatever it sent reached the network before then,
  // which is what the network's pacing counts (pacing.ts). One held back was not made (null).
  const attempted_at = outcome.target.attempted_at === null ? null : deps.clock.now();
  return { ...outcome, target: { ...outcome.target, publish_step, attempted_at } };
}

async function attemptWith(
  deps: ServiceDeps,
  post: PostRecord,
  target: TargetRecord,
  steps: PublishSteps,
  readAccount: AccountReader | undefined,
): Promise<AttemptOutcome> {
  const { store, clock, publishing } = deps;
  const name = NETWORK_RULES[target.platform].name;
  const now = () => clock.now();
  const fail = (error: string, extra: NewEvent[] = []): AttemptOutcome => ({
    target: { ...target, status: "failed", error, in_flight: false, next_attempt_at: null },
    events: [...extra, failedEvent(post, target, error, now())],
  });

  const account = readAccount
    ? await readAccount(target.platform)
    : await store.getAccount(post.user_id, post.mode, target.platform);
  if (!account) {
    if (target.outcome_unknown) return fail(outcomeUnknown(name, "the account was disconnected since"));
    return fail(`The ${name} account is no longer connected; connect it again, then publish the post again.`);
  }
  if (account.health === "reauth_required") {
    if (target.outcome_unknown) return fail(outcomeUnknown(name, "the account needs reconnecting since"));
    return fail(
      `The ${name} account ${account.handle} needs to be reconnected (health: reauth_required); reconnect it, then publish the post again.`,
    );
  }
  const adapter = publishing.adapterFor(post.mode, target.platform);
  if (!adapter) {
    return fail(
      `${name} cannot be published to from this server (no live adapter for it); disconnect the account or use another network.`,
    );
  }
  let credentials: AccountCredentials;
  try {
    credentials = new AccountCredentials(deps, account, adapter);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return fail(`The ${name} account's credentials cannot be read (${why}); reconnect the account.`);
  }
  const key = publishing.publishKey(post, target.platform);
  // A network gets attemptTimeoutMs to answer; an adapter that sends nothing out has no answer to wait for.
  const signal = adapter.local
    ? publishing.shutdown
    : AbortSignal.any([publishing.shutdown, AbortSignal.timeout(publishing.options.attemptTimeoutMs)]);
  const redact = (text: string) => credentials.redact(text);

  try {
    // An OAuth token that ends soon is refreshed first, and once more if the network refuses it
    // (account-credentials.ts).
    const withSession = <T>(work: (session: AccountSession) => Promise<T>) => credentials.use(signal, work);
    // With a step saved, the adapter resumes from it and tells for itself what was already sent.
    if (target.outcome_unknown && steps.saved === null) {
      if (!adapter.findPublished) return fail(outcomeUnknown(name, "no answer came to an earlier attempt"));
      const lost = { key, text: target.text, since: lostAttemptSince(post) };
      const found = await withSession((session) => adapter.findPublished!(session, lost, signal));
      if (found) return published(deps, post, target, adapter, found, now());
    }
    // Work beyond the network's pacing waits for its slot; this attempt does not count as one. Asked
    // right before the request goes out (and before fetching media, which would be wasted).
    const heldBack = async (): Promise<AttemptOutcome | null> => {
      if (post.mode !== "live") return null;
      const until = await pacedUntil(
        store,
        post.user_id,
        post.mode,
        target.platform,
        adapter.pacing,
        now(),
        target.attempted_at,
      );
      if (until <= now()) return null;
      return {
        target: {
          ...target,
          in_flight: false,
          attempts: target.attempts - 1,
          attempted_at: null,
          next_attempt_at: until,
        },
        events: [],
      };
    };
    // Each part's media: fetched for a live network (not for parts an earlier attempt published),
    // described for the sandbox, which sends nothing out but refuses what its network would.
    const parts = partsOf(post, target);
    const done = sentParts(steps.current()).length;
    let media: MediaFile[][] = parts.map(() => []);
    if (parts.some((part) => part.media.length > 0)) {
      if (post.mode === "live" && !adapter.local) {
        const early = await heldBack();
        if (early) return early;
        media = [];
        for (const [i, part] of parts.entries()) {
          media.push(
            i < done
              ? []
              : await fetchPostMedia(deps, post, target.platform, adapter.maxMediaBytes, signal, part.media),
          );
        }
      } else if (adapter.local) {
        const getMedia = (userId: string, id: string) => store.getMedia(userId, id);
        media = await Promise.all(parts.map((part) => describedMedia(getMedia, post.user_id, part.media)));
      }
    }
    const rule = NETWORK_RULES[target.platform];
    const comment = target.first_comment;
    const firstComment =
      comment && comment.status !== "not_carried" && rule.carries.firstComment ? comment.text : null;
    const poll = planPoll(post, target.platform);
    const options = optionsFor(post, target.platform);
    const sent = await withSession(
      async (session): Promise<{ held: AttemptOutcome } | { posted: PublishedPost }> => {
        // After any token refresh: nothing else comes between this check and the request.
        const held = await heldBack();
        if (held) return { held };
        const posted = await adapter.publish(session, {
          postId: post.id,
          text: target.text,
          media: media[0] ?? [],
          ...(parts.length > 1 && {
            thread: parts.slice(1).map((part, i) => ({ text: part.text, media: media[i + 1] ?? [] })),
          }),
          ...(firstComment !== null && { firstComment }),
          ...(poll && { poll }),
          ...(options && { options }),
          key,
          signal,
          step: steps.current(),
          saveStep: (step) => steps.save(step, name),
        });
        return { posted };
      },
    );
    if ("held" in sent) return sent.held;
    return published(deps, post, target, adapter, sent.posted, now());
  } catch (err) {
    return await failure(deps, post, target, account, adapter, err, redact, steps.saved !== null);
  }
}

function published(
  deps: ServiceDeps,
  post: PostRecord,
  target: TargetRecord,
  adapter: NetworkAdapter,
  result: PublishedPost,
  at: number,
): AttemptOutcome {
  const readsMetrics = post.mode === "live" && adapter.readMetrics !== undefined;
  const done: TargetRecord = {
    ...target,
    status: "published",
    permalink: result.permalink,
    remote_id: result.id,
    error: null,
    published_at: at,
    in_flight: false,
    outcome_unknown: false,
    next_attempt_at: null,
    metrics_due_at: readsMetrics ? at + deps.publishing.options.metricsScheduleMs[0]! : null,
    metrics_reads: 0,
    ...(target.parts && { parts: publishedParts(target.parts, result) }),
    ...(target.first_comment && { first_comment: commentOutcome(target.first_comment, result) }),
  };
  const event: NewEvent = {
    id: newId("evt", at),
    user_id: post.user_id,
    type: "post.published",
    created: Math.floor(at / 1000),
    data: {
      post_id: post.id,
      platform: target.platform,
      status: "published",
      permalink: result.permalink,
      metrics: { reach: done.reach, likes: done.likes },
    },
  };
  return { target: done, events: [event] };
}

/** A failed attempt, classified: retried later, failed for good, or the account needing reconnection. */
async function failure(
  deps: ServiceDeps,
  post: PostRecord,
  target: TargetRecord,
  account: AccountRecord,
  adapter: NetworkAdapter,
  err: unknown,
  redact: (text: string) => string,
  resumable: boolean,
): Promise<AttemptOutcome> {
  const { clock, logger, publishing } = deps;
  const at = clock.now();
  const name = NETWORK_RULES[target.platform].name;
  // Anything that is not a classified NetworkError came from inside the adapter, perhaps after it
  // sent the request: treated as an unknown outcome, so it is never blindly sent again.
  const error =
    err instanceof NetworkError
      ? err
      : new NetworkError(target.platform, "unknown", `${name} failed unexpectedly`, { cause: err });
  const message = redact(error.message);
  if (err instanceof NetworkError && (err.kind === "retry" || err.kind === "unknown")) {
    const cause = describeCauses(err.cause);
    logger.warn(
      {
        post_id: post.id,
        platform: target.platform,
        kind: err.kind,
        error: message,
        ...(cause && { cause: redact(cause) }),
      },
      "a network attempt failed",
    );
  }
  if (!(err instanceof NetworkError)) {
    logger.error(
      {
        post_id: post.id,
        platform: target.platform,
        error: redact(err instanceof Error ? err.message : String(err)),
      },
      "network adapter failed unexpectedly",
    );
  }
  const failed = (text: string, events: NewEvent[] = []): AttemptOutcome => ({
    target: { ...target, status: "failed", error: text, in_flight: false, next_attempt_at: null },
    events: [...events, failedEvent(post, target, text, at)],
  });
  const retryAt = (attempts: number) =>
    nextAttemptAt(at, attempts, publishing.options.retryDelaysMs, error.retryAfterMs);
  switch (error.kind) {
    case "retry": {
      const next = retryAt(target.attempts);
      if (next === null) return failed(`${message} (gave up after ${target.attempts} attempts)`);
      return { target: { ...target, in_flight: false, next_attempt_at: next, error: message }, events: [] };
    }
    case "unknown": {
      // Asked again only where the network can tell what happened: findPublished, or a saved step.
      const next = adapter.findPublished || resumable ? retryAt(target.attempts) : null;
      if (next === null) {
        // Kept on the target, so a later retry (POST /posts/{id}/retry) checks before sending again.
        const out = failed(outcomeUnknown(name, message));
        return { ...out, target: { ...out.target, outcome_unknown: true } };
      }
      return {
        target: { ...target, in_flight: false, outcome_unknown: true, next_attempt_at: next, error: message },
        events: [],
      };
    }
    case "reauth": {
      // The grant is gone: the account needs reconnecting, and says so once (account.disconnected).
      await deps.store.updateAccount(
        account.user_id,
        account.mode,
        account.platform,
        { health: "reauth_required" },
        (before, after) =>
          before.health === "reauth_required"
            ? {}
            : { events: [accountEvent("account.disconnected", after, at)] },
      );
      const reconnect = `reconnect the ${name} account (POST /accounts/connect)`;
      // Refused while asking whether an earlier attempt published: publishing again could post twice.
      if (target.outcome_unknown) {
        return failed(
          outcomeUnknown(name, `${message}; ${reconnect} and look on ${name} before publishing again`),
        );
      }
      return failed(`${message}; ${reconnect}, then publish the post again.`);
    }
    case "refused":
      return failed(message);
  }
}

/** The messages this target sends: its planned parts, or (a target from before rich posts) its text. */
function partsOf(post: PostRecord, target: TargetRecord): { text: string; media: readonly MediaRef[] }[] {
  return (
    target.parts?.map((p) => ({ text: p.text, media: p.media })) ?? [
      { text: target.text, media: postMedia(post) },
    ]
  );
}

/** Every part published, with the id and link the network gave each. */
function publishedParts(parts: readonly PartRecord[], result: PublishedPost): PartRecord[] {
  return parts.map((part, i) => {
    const sent = result.parts?.[i] ?? (i === 0 ? result : undefined);
    return {
      ...part,
      status: "published",
      remote_id: sent?.id ?? null,
      permalink: sent?.permalink ?? null,
    };
  });
}

/** What became of the first comment; a comment the network was to get but was not told of failed. */
function commentOutcome(comment: FirstCommentRecord, result: PublishedPost): FirstCommentRecord {
  if (comment.status === "not_carried") return comment;
  if (result.firstComment) return { ...comment, ...result.firstComment };
  return { ...comment, status: "failed", error: "the network's adapter did not add it" };
}

/** A thread's parts after an attempt that did not publish all of them, from its saved progress. */
function partsSoFar(target: TargetRecord, step: PublishStep | null): PartRecord[] {
  const sent = sentParts(step);
  return (target.parts ?? []).map((part, i) => {
    const out = sent[i];
    if (out) return { ...part, status: "published", remote_id: out.id, permalink: out.permalink };
    const failing = i === sent.length && target.status === "failed";
    return { ...part, status: failing ? "failed" : "pending", remote_id: null, permalink: null };
  });
}

function outcomeUnknown(name: string, detail: string): string {
  return `${name}: outcome unknown: check the network (${detail}); it was not sent again, so the post cannot appear twice.`;
}

function failedEvent(post: PostRecord, target: TargetRecord, error: string, at: number): NewEvent {
  return {
    id: newId("evt", at),
    user_id: post.user_id,
    type: "post.failed",
    created: Math.floor(at / 1000),
    data: { post_id: post.id, platform: target.platform, status: "failed", error },
  };
}

/** "TypeError: fetch failed ← Error: connect ECONNREFUSED 127.0.0.1:443": what lies under a failure. */
function describeCauses(cause: unknown): string | undefined {
  const parts: string[] = [];
  for (let c = cause, depth = 0; c instanceof Error && depth < 4; c = c.cause, depth++) {
    parts.push(`${c.name}: ${c.message}`);
  }
  return parts.length > 0 ? parts.join(" ← ") : undefined;
}

/** Skew allowed between our clock and a network's when reading back its recent posts. */
const NETWORK_CLOCK_SKEW_MS = 60_000;

/** The earliest a lost attempt of `post` can have published: when it was made or fell due, less skew. */
function lostAttemptSince(post: PostRecord): number {
  return Math.max(post.created_at, post.scheduled_at ?? 0) - NETWORK_CLOCK_SKEW_MS;
}
