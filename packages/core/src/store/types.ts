import type { EventDataMap, EventType } from "../contract/events.ts";
import type { NetworkId } from "../contract/networks.ts";
import type { PlanName } from "../contract/plans.ts";
import type { AccountHealth, PostStatus, TargetStatus } from "../contract/resources.ts";

/*
 * The persistence seam. The service holds the rules; a store only keeps records and makes a few steps
 * atomic. Every method is async so that a networked store (Postgres) fits the same interface as the
 * in-memory and SQLite ones.
 *
 * Atomicity: each method is one transaction. Methods that change state take `Effects`, whose events are
 * written in that same transaction (the webhook outbox), so a crash can neither lose an event nor
 * invent one for a change that did not happen. The same holds for the answer of a request made with an
 * Idempotency-Key: it is stored with the change it answers, so a retry after a crash replays the
 * change rather than making it twice.
 *
 * Times are Unix milliseconds unless a field says otherwise.
 */

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  studio: string;
  plan: PlanName;
  created_at: number;
}

export type KeyMode = "test" | "live";

export interface ApiKeyRecord {
  id: string;
  user_id: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string;
  mode: KeyMode;
  /** What a person sees to tell keys apart, e.g. "sp_test_…Xy9z". */
  hint: string;
  created_at: number;
  revoked_at: number | null;
  /** What the account holder called it (POST /keys); absent when it was given none. */
  name?: string;
  /**
   * When the key last authenticated a call, to the minute (markKeyUsed): absent until it first does.
   * Not exact on purpose, so that a busy key writes once a minute at most, not on every call.
   */
  last_used_at?: number;
}

/**
 * A connected account. A user has one per network in each mode: the sandbox account a test key
 * publishes to, and the live account a live key publishes through the network's adapter.
 */
export interface AccountRecord {
  user_id: string;
  mode: KeyMode;
  platform: NetworkId;
  handle: string;
  followers: number;
  health: AccountHealth;
  connected_at: number;
  /**
   * A live account's credentials, sealed (AES-256-GCM, see secrets/credential-keyring.ts): the store
   * never holds them in the clear and cannot open them. Null for sandbox accounts.
   */
  credentials: string | null;
  /**
   * When the account's grant ends (Unix ms), for a live grant we cannot refresh (Meta's 60-day tokens, a
   * LinkedIn member token): the account turns `expiring` 7 days before and `reauth_required` then,
   * without opening its credentials (see settleEndingGrants). Not secret. Absent when the grant is
   * refreshed or does not end (a store hands back no null).
   */
  grant_ends_at?: number;
}

/**
 * An OAuth connect under way: made by POST /accounts/connect with a live key, taken (once) by the
 * network's redirect to the callback. Only the state's SHA-256 is kept, as for API keys: the state
 * itself is what the callback trusts, so a copy of the store cannot finish someone's connect.
 */
export interface OAuthStateRecord {
  /** SHA-256 (hex) of the state handed to the network in the authorize URL. */
  state_hash: string;
  user_id: string;
  platform: NetworkId;
  /** What the callback needs to finish (the PKCE verifier), sealed like credentials. */
  secret: string;
  created_at: number;
  /** After this (Unix ms) the state is refused: 15 minutes after it was made. */
  expires_at: number;
}

/** What `updateAccount` may change; never the owner, mode, network or credentials. */
export type AccountPatch = Partial<Pick<AccountRecord, "handle" | "followers" | "health">>;

export interface PostRecord {
  id: string;
  user_id: string;
  /** The mode of the key that made it: a live post publishes through the live adapters, always. */
  mode: KeyMode;
  caption: string;
  platforms: NetworkId[];
  status: PostStatus;
  /** The media reference as given: an http(s) URL or a med_ id; null without media. */
  media: string | null;
  /**
   * Text per network (`captions`): the override of each targeted network that has one, as sent.
   * Absent when there is none (a store hands back no empty object).
   */
  captions?: Partial<Record<NetworkId, string>>;
  scheduled_at: number | null;
  published_at: number | null;
  created_at: number;
}

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
   * middle of an attempt never post twice (see service/publishing/).
   */
  /** Attempts started so far. */
  attempts: number;
  /** When the last attempt started, or null before the first (per-account pacing counts these). */
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
  /** When the network's figures are read next (live posts); null when no read is planned. */
  metrics_due_at: number | null;
  /** Figures read so far: the next read's place on the decaying schedule. */
  metrics_reads: number;
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

/** One network's metrics summed over the targets it published for a user's published posts. */
export interface PlatformTotals extends TargetMetrics {
  platform: NetworkId;
  /** How many of those targets (one per post): the published posts this network carried. */
  posts: number;
}

export type WebhookStatus = "enabled" | "disabled";

export interface WebhookRecord {
  id: string;
  user_id: string;
  url: string;
  events: EventType[];
  /**
   * The signing secret as kept: sealed with the service's keyring (secrets/webhook-secrets.ts), or the
   * `whsec_…` value itself when the service has none (or the row predates sealing). The store never
   * opens it; the service reveals it once, at creation, and opens it to sign.
   */
  secret: string;
  status: WebhookStatus;
  created_at: number;
}

/** What PATCH /webhooks/{id} may change: never the id, the owner, the secret or created_at. */
export type WebhookPatch = Partial<Pick<WebhookRecord, "url" | "events" | "status">>;

/** What every event written to the outbox carries besides its type and data. */
export interface NewEventBase {
  id: string;
  user_id: string;
  /** Unix seconds, as in the envelope. */
  created: number;
  /**
   * Deliver to this endpoint only (test events). Otherwise the store creates one delivery for each
   * enabled endpoint of the user subscribed to the type, due at `created * 1000`.
   */
  webhook_id?: string;
}

/** An event of one type to write to the outbox, its `data` shaped as the contract says for that type. */
export interface NewEventOf<K extends EventType> extends NewEventBase {
  type: K;
  data: EventDataMap[K];
}

/** An event to write to the outbox: one member per type, so `type` tells what `data` holds. */
export type NewEvent = { [K in EventType]: NewEventOf<K> }[EventType];

export type DeliveryState = "pending" | "delivered" | "failed";

/** One event owed to one endpoint. */
export interface DeliveryRecord {
  id: string;
  event_id: string;
  webhook_id: string;
  state: DeliveryState;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due; null once delivered or given up. */
  next_attempt_at: number | null;
  created_at: number;
}

/** What a delivery worker needs to make one attempt. */
export interface DeliveryJob {
  delivery: DeliveryRecord;
  event: NewEvent;
  webhook: WebhookRecord;
}

export interface AttemptRecord {
  /** att_… — time-sortable, so the delivery log lists newest first by id. */
  id: string;
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  /** 1 for the first attempt of the delivery, then 2, … */
  attempt: number;
  at: number;
  /** HTTP status, or null when no response came (timeout, refused). */
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  /** When the delivery was due again after this attempt; null once it was delivered or given up. */
  next_attempt_at: number | null;
}

/** An attempt as the delivery log shows it: with the type of the event it carried. */
export interface AttemptLogEntry extends AttemptRecord {
  event_type: EventType;
}

/** What a worker already has in flight, so a claim leaves room for other endpoints. */
export interface ClaimOptions {
  /** At most this many deliveries per endpoint in flight, counting `busy`. */
  perWebhook?: number;
  /** Deliveries the caller has in flight, per webhook id. */
  busy?: Readonly<Record<string, number>>;
}

export interface ListAttemptsOptions {
  limit: number;
  /** Return attempts strictly older (smaller id) than this id. */
  beforeId?: string;
}

export interface MediaRecord {
  id: string;
  user_id: string;
  url: string;
  type: string;
  size: number;
  status: "processing" | "ready";
  /** Where uploaded bytes are kept (server data folder), or null for a remote URL. */
  path: string | null;
  created_at: number;
}

/**
 * A request made with an Idempotency-Key, scoped to (user_id, key). While the first request runs the
 * record is in flight (status and body null); afterwards it holds the response to replay.
 */
export interface IdempotencyRecord {
  user_id: string;
  key: string;
  /** What makes a retry "the same request": method, path and query, and a hash of the body. */
  fingerprint: string;
  /** The stored response, or null while the first request is in flight. */
  status: number | null;
  /** The stored response body (JSON text), or null while in flight. */
  body: string | null;
  created_at: number;
  /** After this time the record no longer counts and the key may be used again. */
  expires_at: number;
}

/**
 * An IdempotencyRecord that holds its answer: the status and body a retry replays. With `claim`, the
 * write carrying it is also the request's claim of the key (no in-flight record was written before it):
 * when a record for (user_id, key) that has not expired at `created_at` is already there, the write
 * changes nothing and fails with IdempotencyKeyTaken, so of two requests racing with one key (on one
 * instance or several) exactly one makes its change.
 */
export type IdempotencyAnswer = IdempotencyRecord & { status: number; body: string; claim?: true };

/** Side effects written in the same transaction as the change. */
export interface Effects {
  events?: NewEvent[];
  /**
   * The answer of the request made with an Idempotency-Key that makes this change. It replaces the
   * request's in-flight record for (user_id, key) (or is inserted when that record is gone), so the
   * change and the answer a retry replays are written together or not at all.
   */
  idempotency?: IdempotencyAnswer;
}

/** An authenticated API call: the key it was made with, that key's user, and the month's count with it. */
export interface AuthorizedCall {
  key: ApiKeyRecord;
  user: UserRecord;
  /** The user's API calls in the month, this one included. */
  calls: number;
  /**
   * The version of the user's posts as this call saw them: it changes in the same transaction as any
   * change to one of the user's posts or to its targets' metrics, whichever process made it, and never
   * returns to an earlier value. A list page built after this call is at least this fresh.
   */
  postsVersion: number;
}

/** What transitionPost may change: the status and times, and what an edit changes. */
export type PostPatch = Partial<
  Pick<
    PostRecord,
    "status" | "scheduled_at" | "published_at" | "caption" | "captions" | "platforms" | "media"
  >
>;

export interface ListPostsOptions {
  statuses?: PostStatus[];
  limit: number;
  /** Return posts strictly older (smaller id) than this id: ids are time-sortable. */
  beforeId?: string;
}

/** What a shared store tells every instance using it, as another instance writes (see Store.listen). */
export interface StoreWakeups {
  /** A post became due at `at` (created or rescheduled): the scheduler's timer may need to move earlier. */
  postDue(at: number): void;
  /** Deliveries became owed (events written, an endpoint enabled): the delivery worker looks again. */
  deliveriesOwed(): void;
  /**
   * An instance started a retry of a network at `at`: should it die making it, the in-flight sweep of
   * every other instance recovers it once the attempt's lease runs out.
   */
  attemptStarted?(at: number): void;
  /**
   * An account was connected with a grant we cannot refresh (grant_ends_at): the sweep of ending
   * grants reads again when it next has something to do (nextGrantChangeAt).
   */
  grantsChanged?(): void;
  /**
   * A network's next attempt was scheduled for `at` (a failed attempt's retry, pacing): the retry
   * worker's timer may need to move earlier. The instance that wrote it may die before `at`.
   */
  retryDue?(at: number): void;
}

export interface Store {
  /**
   * Whether several server processes may use this store at once (PostgreSQL). Then nothing is released
   * at start, since what looks interrupted may belong to a live instance: a claimed post is leased and
   * claimed again once its lease runs out, as deliveries are, and a key left in flight frees itself when
   * its in-flight lease ends. Limits are counted in the store (countKeyRequest). A store one process
   * holds alone (memory, SQLite) is not shared: it releases at start and the rate limit counts in memory.
   */
  readonly shared: boolean;
  /** Answers when the store is reachable (for /healthz). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * A shared store: calls `wakeups` when another instance (or this one) writes something that is due,
   * so instances need not poll; answers a function that stops listening. Absent on a store that one
   * process holds alone, where the service's own calls are the only writes.
   */
  listen?(wakeups: StoreWakeups): Promise<() => Promise<void>>;
  /**
   * A shared store: adds one request to the key's count for the rate-limit window starting at
   * `windowStart` (Unix ms) and answers the count including it, exact across instances. Absent where
   * the service counts in memory.
   */
  countKeyRequest?(keyId: string, windowStart: number): Promise<number>;
  /**
   * A shared store: runs `work` while no other caller, in any instance, runs work of the same user
   * through this method (a lock held in the database), so a rule that reads a count and then writes
   * (posts per month, connected profiles) holds across instances. Absent where one process holds the
   * store and the service's own per-user queue is enough.
   */
  exclusivelyForUser?<T>(userId: string, work: () => Promise<T>): Promise<T>;

  // Users and keys
  createUser(user: UserRecord): Promise<void>;
  getUser(id: string): Promise<UserRecord | null>;
  findUserByEmail(email: string): Promise<UserRecord | null>;
  listUsers(): Promise<UserRecord[]>;
  createKey(key: ApiKeyRecord): Promise<void>;
  findKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  listKeys(userId: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; false when there is no such key or it already was. */
  revokeKey(id: string, at: number, effects?: Effects): Promise<boolean>;
  /**
   * Sets the key's `last_used_at` to `at`, unless it already holds a time that late or later (two
   * instances marking at once never move it back). The service calls it at most once a minute per key.
   */
  markKeyUsed(id: string, at: number): Promise<void>;

  // Usage
  /**
   * Authenticates and counts an API call in one step: finds the key with this hash and, when it exists,
   * is not revoked and its user exists, adds one call to that user's `month` ("YYYY-MM", UTC) and
   * answers the key, the user and the new count. Otherwise answers null and counts nothing. What it
   * answers is read when the call is counted, so a key revoked (a plan changed) before is seen at once,
   * whichever process changed it.
   */
  authorizeCall(keyHash: string, month: string): Promise<AuthorizedCall | null>;
  /** Adds one API call to the user's counter for `month` ("YYYY-MM", UTC) and returns the new count. */
  incrementApiCalls(userId: string, month: string): Promise<number>;
  getApiCalls(userId: string, month: string): Promise<number>;

  // Accounts (one per user, mode and network)
  /** The user's accounts of one mode, in the order they were first connected. */
  listAccounts(userId: string, mode: KeyMode): Promise<AccountRecord[]>;
  getAccount(userId: string, mode: KeyMode, platform: NetworkId): Promise<AccountRecord | null>;
  /** Inserts or replaces the account for (user, mode, platform), credentials included. */
  putAccount(account: AccountRecord, effects?: Effects): Promise<void>;
  /**
   * Changes handle, followers or health of an existing account, leaving its credentials as they are (a
   * refresh may be storing new ones meanwhile). Null, and no effects, when there is no such account.
   * `effectsFor` gets the account as it was and as updated.
   */
  updateAccount(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    patch: AccountPatch,
    effectsFor?: (before: AccountRecord, after: AccountRecord) => Effects,
  ): Promise<AccountRecord | null>;
  /**
   * Replaces an existing account's sealed credentials; false when the account is gone or, given
   * `expected`, when its credentials are no longer `expected` (someone replaced them meanwhile, e.g. a
   * refreshed session while `secrets reseal` ran).
   */
  setAccountCredentials(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    credentials: string,
    expected?: string,
  ): Promise<boolean>;
  deleteAccount(userId: string, mode: KeyMode, platform: NetworkId, effects?: Effects): Promise<boolean>;
  /** How many accounts hold sealed credentials (a server with any refuses to start without its key). */
  countAccountsWithCredentials(): Promise<number>;
  /**
   * The sweep of grants we cannot refresh, across users: live accounts with a `grant_ends_at` whose
   * health that end calls for at `now` — `healthy` ones whose grant ends within `aheadMs` become
   * `expiring`, and ones not yet `reauth_required` whose grant has ended (at or before `now`) become
   * `reauth_required` — at most `limit`, earliest end first. Each account changes once: the change is
   * conditional on the health it replaces, so of instances sweeping at once one makes it (and writes
   * its effects) and the others skip it. `effectsFor` gets each account as changed, and what it answers
   * is written in the same step. Answers the accounts changed.
   */
  settleEndingGrants(
    now: number,
    aheadMs: number,
    limit: number,
    effectsFor?: (account: AccountRecord) => Effects,
  ): Promise<AccountRecord[]>;
  /**
   * When settleEndingGrants next has something to do: the earliest `grant_ends_at - aheadMs` of live
   * `healthy` accounts and `grant_ends_at` of live `expiring` ones (a time already past when one is due
   * now), or null when no account's grant will change its health.
   */
  nextGrantChangeAt(aheadMs: number): Promise<number | null>;
  /**
   * Live accounts of `platforms` that hold credentials but no `grant_ends_at` (connected before it was
   * kept, or holding a grant that is refreshed or does not end), in (user_id, platform) order after
   * `after`, at most `limit`: what filling grant_ends_at in from the sealed credentials goes through.
   */
  listAccountsWithoutGrantEnd(
    platforms: readonly NetworkId[],
    after: { user_id: string; platform: NetworkId } | null,
    limit: number,
  ): Promise<AccountRecord[]>;
  /**
   * Sets `grant_ends_at` of a live account that has none and whose sealed credentials are still
   * `expected` (neither reconnected nor refreshed since they were read), changing nothing else; false,
   * and nothing written, otherwise.
   */
  fillGrantEnd(userId: string, platform: NetworkId, grantEndsAt: number, expected: string): Promise<boolean>;

  // OAuth connects under way (single-use states, bound to the user)
  /** Stores a pending connect; connects that expired at or before its created_at are removed with it. */
  putOAuthState(record: OAuthStateRecord): Promise<void>;
  /**
   * Removes the pending connect with this state hash and answers it, once: a second take of the same
   * state answers null. One that expired at or before `now` is removed and answers null too.
   */
  takeOAuthState(stateHash: string, now: number): Promise<OAuthStateRecord | null>;

  // Posts
  insertPost(post: PostRecord, targets: TargetRecord[], effects?: Effects): Promise<void>;
  getPost(userId: string, id: string): Promise<PostRecord | null>;
  /** Most recent first (descending id). */
  listPosts(userId: string, options: ListPostsOptions): Promise<PostRecord[]>;
  /**
   * Posts the user created at or after `since` (plan limit: posts per month), deleted ones included:
   * deleting a post does not give back its place in the month's allowance.
   */
  countPostsCreatedSince(userId: string, since: number): Promise<number>;
  getTargets(postId: string): Promise<TargetRecord[]>;
  /**
   * Each post's metrics summed over its targets, by post id (a post without targets is absent): what a
   * list of posts shows, read in one step instead of one getTargets per post.
   */
  sumTargetMetrics(postIds: readonly string[]): Promise<Map<string, TargetMetrics>>;
  /**
   * Removes the post and its targets if it belongs to the user. `effectsFor` is called with the record
   * as it was inside the transaction, so the event names the status the post really had.
   */
  deletePost(
    userId: string,
    id: string,
    effectsFor?: (post: PostRecord) => Effects,
  ): Promise<PostRecord | null>;
  /**
   * Compare-and-set: applies `patch` (and replaces the targets when given) only when the post exists and
   * its status is one of `from`. Returns the updated record, or null when the condition failed.
   * Publishing completes through this (`from: ["publishing"]`), so a post deleted meanwhile stays deleted;
   * an edit goes through it too (`from` the status it read, draft or scheduled), so an edit racing the
   * scheduler either lands before the claim or is refused, never half. `patch.captions` replaces the
   * overrides (`{}` removes them). `effects` may be a function of the updated record (to answer with the
   * post as it was written); it is called, and its effects written, only when the transition is applied.
   */
  transitionPost(
    id: string,
    from: PostStatus[],
    patch: PostPatch,
    targets?: TargetRecord[],
    effects?: Effects | ((post: PostRecord) => Effects),
  ): Promise<PostRecord | null>;
  /**
   * Atomically moves up to `limit` scheduled posts due at or before `now` to publishing, oldest due first.
   * A shared store leases each claim: a post still publishing when its lease runs out (its instance
   * died) is claimed again by a later call, so another instance completes it.
   */
  claimDuePosts(now: number, limit: number): Promise<PostRecord[]>;
  /** The earliest scheduled_at among scheduled posts (on a shared store, or lease end of a claim), or null. */
  nextDueAt(): Promise<number | null>;
  /**
   * After a crash: posts left in publishing go back to scheduled so they publish (once) again. A post
   * that was being published at once (scheduled_at null) gets its created_at as due time, so it
   * publishes right away. Returns how many posts were released. A shared store releases nothing and
   * answers 0: its leases hand interrupted claims over instead.
   */
  releaseInterruptedPublishing(): Promise<number>;

  // Publishing targets (service/publishing/): attempts are claimed, so two workers never send one twice
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
   * Targets of a post that is a draft or scheduled are left for the post's own publishing.
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
   * When each of the user's targets on the network in that mode last started an attempt, for those
   * at or after `since`, oldest first (per-account pacing).
   */
  recentAttemptTimes(userId: string, mode: KeyMode, platform: NetworkId, since: number): Promise<number[]>;
  /**
   * Claims up to `limit` published targets whose metrics read is due (metrics_due_at at or before
   * `now`), earliest first, moving metrics_due_at to `leaseUntil` so no other worker reads them
   * meanwhile.
   */
  claimDueMetricReads(now: number, leaseUntil: number, limit: number): Promise<ClaimedTarget[]>;
  /** The earliest metrics_due_at, or null. */
  nextMetricsReadAt(): Promise<number | null>;
  /** Sets when the target's figures are read next (null: never again) and how many reads were made. */
  scheduleMetricsRead(
    postId: string,
    platform: NetworkId,
    dueAt: number | null,
    reads: number,
  ): Promise<void>;

  /**
   * Records metrics a network reported; each figure only grows. Null when the target does not exist.
   * `effectsFor` gets the target as updated and is written with it.
   */
  reportMetrics(
    postId: string,
    platform: NetworkId,
    metrics: TargetMetrics,
    effectsFor?: (target: TargetRecord) => Effects,
  ): Promise<TargetRecord | null>;
  /** Targets of the user's published posts, for analytics. */
  listPublishedTargets(userId: string): Promise<TargetRecord[]>;
  countPublishedPosts(userId: string): Promise<number>;
  /**
   * Per network, the user's published posts' targets that network published, summed (reach, likes,
   * comments, shares) and counted, in no particular order; networks without such a target are absent.
   * What the analytics summary reads, aggregated where the rows are instead of loaded one by one.
   */
  sumPublishedMetricsByPlatform(userId: string): Promise<PlatformTotals[]>;

  // Webhooks and the outbox
  createWebhook(webhook: WebhookRecord, effects?: Effects): Promise<void>;
  listWebhooks(userId: string): Promise<WebhookRecord[]>;
  getWebhook(userId: string, id: string): Promise<WebhookRecord | null>;
  /** Removes the user's endpoint and what was owed to it; false (and no effects) when there is none. */
  deleteWebhook(userId: string, id: string, effects?: Effects): Promise<boolean>;
  /**
   * Enables or disables an endpoint. Disabling also ends what is still owed to it: its pending
   * deliveries become failed, so nothing more is sent there.
   */
  setWebhookStatus(id: string, status: WebhookStatus): Promise<void>;
  /**
   * Changes the user's endpoint (URL, events, status; the secret stays) and answers it as updated, or
   * null when the user has no such endpoint. Disabling ends what is still owed to it, as
   * setWebhookStatus does; enabling does not bring that back: the endpoint is owed the events written
   * from then on (and any resent).
   */
  updateWebhook(userId: string, id: string, patch: WebhookPatch): Promise<WebhookRecord | null>;
  /** Every endpoint of every user, with its secret as kept: what sealing and resealing go through. */
  listWebhookSecrets(): Promise<Pick<WebhookRecord, "id" | "user_id" | "secret">[]>;
  /**
   * Replaces an endpoint's secret as kept with `secret` (the same secret, sealed anew) if it is still
   * `expected`; false when the endpoint is gone or its value changed meanwhile.
   */
  setWebhookSecret(id: string, secret: string, expected: string): Promise<boolean>;
  /**
   * Writes events on their own (analytics.daily, test events), with deliveries like any other, and
   * `effects` (their events too) in the same transaction.
   */
  appendEvents(events: NewEvent[], effects?: Effects): Promise<void>;
  /**
   * Claims deliveries due at or before `now` (state pending), oldest due first, pushing their
   * next_attempt_at to `leaseUntil` so a second worker does not take them; at most `limit`, and at most
   * `options.perWebhook` per endpoint counting those in `options.busy`. A due delivery whose endpoint
   * is disabled, or whose event or endpoint is gone, is ended (failed) instead of handed out.
   */
  claimDueDeliveries(
    now: number,
    leaseUntil: number,
    limit: number,
    options?: ClaimOptions,
  ): Promise<DeliveryJob[]>;
  /**
   * Records an attempt and the delivery's new state in one step; the stored attempt's next_attempt_at
   * is `next.next_attempt_at`.
   */
  recordAttempt(
    attempt: Omit<AttemptRecord, "next_attempt_at">,
    next: { state: DeliveryState; next_attempt_at: number | null },
  ): Promise<void>;
  /** The earliest next_attempt_at among pending deliveries, leaving out those of the given endpoints. */
  nextDeliveryAt(options?: { excludeWebhookIds?: readonly string[] }): Promise<number | null>;
  /** The attempts made to one endpoint, newest first (descending id), with their events' types. */
  listAttempts(webhookId: string, options: ListAttemptsOptions): Promise<AttemptLogEntry[]>;
  /**
   * Owes the event to the endpoint once more: a new pending delivery due at `now` (the same event, so
   * the same webhook-id). Null when the endpoint or the event does not exist, or they belong to
   * different users. `effectsFor` gets the new delivery and is written with it.
   */
  resendEvent(
    webhookId: string,
    eventId: string,
    now: number,
    effectsFor?: (delivery: DeliveryRecord) => Effects,
  ): Promise<DeliveryRecord | null>;
  /** The user's events, oldest first, as written to the outbox (test events included). */
  listEvents(userId: string): Promise<NewEvent[]>;
  /**
   * Retention: removes up to `limit` events created before `before` (Unix ms) that nothing is still
   * owed for — every delivery of them delivered or failed for good, or none at all — with their
   * deliveries and attempts, oldest first, and answers how many events it removed. An event with a
   * pending delivery (a retry, a resend) stays until that ends.
   */
  pruneDeliveryHistory(before: number, limit: number): Promise<number>;

  // Idempotency keys
  /**
   * Claims (user_id, key) for a request: when no record exists for them, or the one there expired at
   * or before `record.created_at`, stores `record` (in flight) and returns null. Otherwise returns the
   * record already there and changes nothing. Atomic: of two concurrent claims, one gets null.
   */
  beginIdempotentRequest(record: IdempotencyRecord): Promise<IdempotencyRecord | null>;
  /**
   * The record for (user_id, key) that has not expired at `now` (in flight or holding its answer), or
   * null. Reads only: a request whose first write claims the key (`IdempotencyAnswer.claim`) looks here
   * first, so a retry of a finished request replays its answer instead of running again.
   */
  findIdempotentRequest(userId: string, key: string, now: number): Promise<IdempotencyRecord | null>;
  /**
   * Stores the response of the request and when the record expires, over the record there (in
   * flight, or holding the answer its change wrote through `Effects.idempotency`).
   */
  completeIdempotentRequest(
    userId: string,
    key: string,
    response: { status: number; body: string; expires_at: number },
  ): Promise<void>;
  /**
   * Forgets the record while it is in flight (a response that is not kept, or a request that failed
   * before changing anything), freeing the key. A record that holds an answer stays: its change was
   * written, and a retry must replay it rather than make the change again.
   */
  releaseIdempotentRequest(userId: string, key: string): Promise<void>;
  /**
   * After a crash: forgets every record still in flight and returns how many. A change and its answer
   * are written together, so a request whose record is still in flight changed nothing, and its key
   * may be used again at once rather than after the in-flight lease. Only right when no other process
   * serves requests on this store (one server per database): a shared store frees nothing and answers 0.
   */
  releaseInterruptedIdempotentRequests(): Promise<number>;

  // Daily analytics
  /** The last UTC day (YYYY-MM-DD) settled for the user by settleAnalyticsDay, or null before the first. */
  lastAnalyticsDay(userId: string): Promise<string | null>;
  /**
   * Settles the user's analytics.daily for `date` (YYYY-MM-DD, UTC) in one step: when `date` is later
   * than the last day settled, writes `events` (the day's event, or none when no endpoint listens) and
   * records `date` as the last day settled, answering true; otherwise writes nothing and answers false.
   * A day is therefore written once however often it is tried, a crash included, and never after a later
   * one.
   */
  settleAnalyticsDay(userId: string, date: string, events: NewEvent[]): Promise<boolean>;

  // Media
  insertMedia(media: MediaRecord, effects?: Effects): Promise<void>;
  getMedia(userId: string, id: string): Promise<MediaRecord | null>;
}
