import type { NetworkId } from "../../contract/networks.ts";
import type { TargetStatus } from "../../contract/resources.ts";
import type { Effects } from "./effects.ts";
import type { KeyMode } from "./keys.ts";
import type { MediaRef, PostRecord } from "./posts.ts";

export interface TargetRecord {
  post_id: string;
  platform: NetworkId;
  status: TargetStatus;
  text: string;
  permalink: string | null;
  error: string | null;
  published_at: number | null;
  reach: number;
  likes: number;
  comments: number;
  shares: number;
  /*
   * Where publishing this target stands, kept durably so that retries, a restart and a crash in the
   * middle of an attempt never post twice (see src/publishing/).
   */
  /** Attempts started so far. */
  attempts: number;
  /**
   * When the last attempt started while it is in flight; once its outcome is written, when it ended
   * (the network's answer came, or the service stopped waiting): the network received it no later.
   * Null before the first. Per-account pacing counts these (publishing/pacing.ts).
   */
  attempted_at: number | null;
  /** An attempt started and its outcome is not recorded yet. */
  in_flight: boolean;
  /**
   * An attempt may have published without our knowing (no answer came, or the server stopped while it
   * was in flight): the next attempt first asks the network whether the post is there.
   */
  outcome_unknown: boolean;
  /** When a pending target is due for its next attempt (a retry, or pacing); null when none is set. */
  next_attempt_at: number | null;
  /** The network's id of the published post (a record key, a message id). */
  remote_id: string | null;
  /**
   * How far a publish in several steps got (a network's media container made, then published), as
   * the adapter saved it (JSON text, the adapter's own shape) before it went on: the next attempt,
   * after a retry or a restart, resumes from it instead of starting over, so it cannot publish twice.
   * Null when no step was saved. Not secret: ids the network handed out, never tokens.
   */
  publish_step: string | null;
  /**
   * Rich posts: each message this network gets (one, or a thread's parts) with its outcome, the first
   * comment's outcome, and notes on what was adapted. Absent on a target written before rich posts
   * (it then has one part: `text`, with the target's status and permalink).
   */
  parts?: PartRecord[];
  first_comment?: FirstCommentRecord | null;
  notes?: string[];
  /** When the network's figures are read next (live posts); null when no read is planned. */
  metrics_due_at: number | null;
  /** Figures read so far: the next read's place on the decaying schedule. */
  metrics_reads: number;
}

/** One message of a target: its text and media as this network gets them, and what became of it. */
export interface PartRecord {
  text: string;
  media: MediaRef[];
  status: "pending" | "published" | "failed";
  remote_id: string | null;
  permalink: string | null;
}

export interface FirstCommentRecord {
  text: string;
  status: "pending" | "published" | "failed" | "not_carried";
  permalink: string | null;
  error: string | null;
}

/** A target with the post it belongs to: what the publishing and metrics workers claim. */
export interface ClaimedTarget {
  post: PostRecord;
  target: TargetRecord;
}

export interface TargetMetrics {
  reach: number;
  likes: number;
  comments: number;
  shares: number;
}

/**
 * A post's targets (one per network) as publishing goes through them: attempts are claimed, so two
 * workers never send one twice, and their outcomes are written with the post they settle.
 */
export interface TargetStore {
  // Publishing targets (src/publishing/): attempts are claimed, so two workers never send one twice
  /**
   * Starts an attempt for each named target of the post that is pending, not in flight, and due (no
   * next_attempt_at, or one at or before `now`): in_flight, attempts + 1, attempted_at = now,
   * next_attempt_at = null. Answers the targets it started, as updated; the others are left alone.
   */
  beginTargetAttempts(postId: string, platforms: readonly NetworkId[], now: number): Promise<TargetRecord[]>;
  /**
   * beginTargetAttempts for every target of the post, in one step: answers all of the post's targets
   * (those started as updated, the others as stored), in the post's network order, and the ones it
   * started. Optional: a store that has it saves a round trip per published post (a shared store);
   * without it the service reads the targets, then begins their attempts.
   */
  beginAllAttempts?(
    postId: string,
    now: number,
  ): Promise<{ targets: TargetRecord[]; started: TargetRecord[] }>;
  /**
   * Claims up to `limit` targets whose next attempt is due (pending, not in flight, next_attempt_at at
   * or before `now`), earliest due first, starting an attempt for each as beginTargetAttempts does.
   * Targets of a post that is a draft or scheduled are left for the post's own publishing. At most one
   * per account (user, mode and network) in a claim, its earliest due: every target of a claim is
   * stamped with one start time, and an attempt's pacing check counts only the attempts started before
   * its own, so two of one account claimed together would each pass the check for the same slot. The
   * others are claimed by a later claim, stamped later. A store reads at most CLAIM_LOOKAHEAD × limit
   * due targets to choose from (claim-per-account.ts), so a claim may answer fewer than `limit` while more are due.
   */
  claimDueTargets(now: number, limit: number): Promise<ClaimedTarget[]>;
  /** The earliest next_attempt_at among pending targets not in flight, or null. */
  nextTargetAttemptAt(): Promise<number | null>;
  /**
   * Writes what attempts came to (each given target replaces the stored one of its network; none may
   * be given), then settles the post when it is publishing or published: any target published →
   * published (published_at kept, else `now`); else any pending → publishing; else (every network
   * failed) → draft with no schedule. A post in any other status keeps it. `effects` (or the effects
   * made from the post as settled) are written in the same step. Null, and nothing written, when the
   * post is gone.
   *
   * A stored target already settled (published or failed) is final: a given one is not written over
   * it. Another attempt settled it first — on a shared store, an instance that took the post over
   * when its lease ran out while this outcome waited on the database — and what that attempt wrote,
   * events included, stands. `written` names the networks whose outcomes were written, so the effects
   * made from it announce only those.
   */
  finishTargets(
    postId: string,
    targets: readonly TargetRecord[],
    now: number,
    effects?: Effects | ((post: PostRecord, written: ReadonlySet<NetworkId>) => Effects),
  ): Promise<PostRecord | null>;
  /**
   * Saves how far the attempt in flight got (`publish_step`: a container made, its publish sent) before
   * the adapter goes on, so a restart resumes from there. Written only while the target is in flight
   * with `attempts` as given (the attempt that saves it): false, and nothing written, when the target is
   * gone, its attempt ended, or a later attempt took it over.
   */
  saveTargetStep(
    postId: string,
    platform: NetworkId,
    attempts: number,
    step: string | null,
  ): Promise<boolean>;
  /**
   * After a crash: every target in flight whose attempt started before `startedBefore` is no longer
   * in flight, its outcome unknown, and due at once. Answers how many. Only right when no other process
   * publishes on this store with attempts that old.
   */
  releaseInterruptedTargets(startedBefore: number, now: number): Promise<number>;
  /**
   * When the attempt that has been marked in flight longest started (attempted_at), or null when none
   * is in flight: on a shared store, when another instance's cut-off attempt can first be recovered.
   */
  oldestAttemptInFlight(): Promise<number | null>;
  /**
   * The last attempt of each of the user's targets on the network in that mode, for those whose
   * attempted_at is at or after `since`, oldest first, each with whether it is still in flight
   * (per-account pacing).
   */
  recentAttempts(userId: string, mode: KeyMode, platform: NetworkId, since: number): Promise<RecentAttempt[]>;
}

/** One attempt as per-account pacing counts it: its attempted_at, and whether it is in flight. */
export interface RecentAttempt {
  at: number;
  in_flight: boolean;
}
