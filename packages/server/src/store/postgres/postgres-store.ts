import type {
  AccountPatch,
  AccountRecord,
  ApiKeyRecord,
  AttemptLogEntry,
  AttemptRecord,
  AuthorizedCall,
  ClaimedTarget,
  ClaimOptions,
  DeliveryJob,
  DeliveryRecord,
  DeliveryState,
  Effects,
  IdempotencyRecord,
  KeyMode,
  ListAttemptsOptions,
  ListPostsOptions,
  MediaRecord,
  NetworkId,
  NewEvent,
  OAuthStateRecord,
  PlatformTotals,
  PostPatch,
  PostRecord,
  PostStatus,
  RecentAttempt,
  Store,
  StoreWakeups,
  TargetMetrics,
  TargetRecord,
  UserRecord,
  WebhookPatch,
  WebhookRecord,
  WebhookStatus,
} from "@socialpub/core";
import * as accounts from "./accounts.ts";
import * as analytics from "./analytics.ts";
import { PostgresCore, type PostgresStoreOptions } from "./core.ts";
import { FinishGroups } from "./finish-groups.ts";
import * as idempotency from "./idempotency.ts";
import * as keys from "./keys.ts";
import * as lifecycle from "./lifecycle.ts";
import * as mediaRecords from "./media.ts";
import * as outbox from "./outbox.ts";
import * as posts from "./posts.ts";
import * as publishing from "./publishing.ts";
import { TurnBatches } from "./turn-batches.ts";
import * as webhooks from "./webhooks.ts";

export { describeUrl, type PostgresStoreOptions } from "./core.ts";

/**
 * The Store on PostgreSQL, for several server instances sharing one database: the transaction core
 * (core.ts) and one module per area of the Store interface, each a set of functions of that core.
 *
 * Every method that changes more than one row is one transaction (READ COMMITTED); rows that decide a
 * step are locked as they are read (FOR UPDATE), so two instances cannot both act on the same record,
 * and claims of work (due posts, due deliveries) skip rows another instance holds (SKIP LOCKED), so
 * instances claiming at once share the work instead of queueing behind each other. A transaction that
 * loses a deadlock is run again. A lost connection or a database that is restarting becomes a
 * StoreUnavailableError, which the service answers with 503.
 */
export class PostgresStore implements Store {
  readonly shared = true;
  readonly url: string;
  /** Where the store points, without a password: for logs and the start line. */
  readonly description: string;
  private readonly core: PostgresCore;
  /** finishTargets calls made together, written in one transaction (finish-groups.ts). */
  private readonly finishes: FinishGroups;
  /** A post's attempt start and reads before its request goes out, one statement per turn (turn-batches.ts). */
  private readonly batches: TurnBatches;

  private constructor(core: PostgresCore) {
    this.core = core;
    this.finishes = new FinishGroups(core);
    this.batches = new TurnBatches(core);
    this.url = core.url;
    this.description = core.description;
  }

  /** Connects, and brings the schema up to date (or refuses a schema newer than this server). */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    return new PostgresStore(await PostgresCore.open(options));
  }

  ping(): Promise<void> {
    return this.core.ping();
  }

  close(): Promise<void> {
    return this.core.close();
  }

  // ── a store several instances share ──────────────────────────────────────────────────────────────
  listen(wakeups: StoreWakeups): Promise<() => Promise<void>> {
    return lifecycle.listen(this.core, wakeups);
  }

  exclusivelyForUser<T>(userId: string, work: () => Promise<T>): Promise<T> {
    return lifecycle.exclusivelyForUser(this.core, userId, work);
  }

  // ── users, keys and usage ────────────────────────────────────────────────────────────────────────
  createUser(user: UserRecord): Promise<void> {
    return keys.createUser(this.core, user);
  }

  getUser(id: string): Promise<UserRecord | null> {
    return keys.getUser(this.core, id);
  }

  findUserByEmail(email: string): Promise<UserRecord | null> {
    return keys.findUserByEmail(this.core, email);
  }

  listUsers(): Promise<UserRecord[]> {
    return keys.listUsers(this.core);
  }

  createKey(key: ApiKeyRecord): Promise<void> {
    return keys.createKey(this.core, key);
  }

  findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    return keys.findKeyByHash(this.core, hash);
  }

  listKeys(userId: string): Promise<ApiKeyRecord[]> {
    return keys.listKeys(this.core, userId);
  }

  revokeKey(id: string, at: number, effects?: Effects): Promise<boolean> {
    return keys.revokeKey(this.core, id, at, effects);
  }

  markKeyUsed(id: string, at: number): Promise<void> {
    return keys.markKeyUsed(this.core, id, at);
  }

  authorizeCall(keyHash: string, month: string): Promise<AuthorizedCall | null> {
    return keys.authorizeCall(this.core, keyHash, month);
  }

  incrementApiCalls(userId: string, month: string): Promise<number> {
    return keys.incrementApiCalls(this.core, userId, month);
  }

  countKeyRequest(keyId: string, windowStart: number): Promise<number> {
    return keys.countKeyRequest(this.core, keyId, windowStart);
  }

  getApiCalls(userId: string, month: string): Promise<number> {
    return keys.getApiCalls(this.core, userId, month);
  }

  // ── accounts and OAuth connects under way ────────────────────────────────────────────────────────
  listAccounts(userId: string, mode: KeyMode): Promise<AccountRecord[]> {
    return accounts.listAccounts(this.core, userId, mode);
  }

  getAccount(userId: string, mode: KeyMode, platform: NetworkId): Promise<AccountRecord | null> {
    return this.batches.account.load({ userId, mode, platform });
  }

  putAccount(account: AccountRecord, effects?: Effects): Promise<void> {
    return accounts.putAccount(this.core, account, effects);
  }

  updateAccount(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    patch: AccountPatch,
    effectsFor?: (before: AccountRecord, after: AccountRecord) => Effects,
  ): Promise<AccountRecord | null> {
    return accounts.updateAccount(this.core, userId, mode, platform, patch, effectsFor);
  }

  setAccountCredentials(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    credentials: string,
    expected?: string,
  ): Promise<boolean> {
    return accounts.setAccountCredentials(this.core, userId, mode, platform, credentials, expected);
  }

  deleteAccount(userId: string, mode: KeyMode, platform: NetworkId, effects?: Effects): Promise<boolean> {
    return accounts.deleteAccount(this.core, userId, mode, platform, effects);
  }

  countAccountsWithCredentials(): Promise<number> {
    return accounts.countAccountsWithCredentials(this.core);
  }

  settleEndingGrants(
    now: number,
    aheadMs: number,
    limit: number,
    effectsFor?: (account: AccountRecord) => Effects,
  ): Promise<AccountRecord[]> {
    return accounts.settleEndingGrants(this.core, now, aheadMs, limit, effectsFor);
  }

  nextGrantChangeAt(aheadMs: number): Promise<number | null> {
    return accounts.nextGrantChangeAt(this.core, aheadMs);
  }

  listAccountsWithoutGrantEnd(
    platforms: readonly NetworkId[],
    after: { user_id: string; platform: NetworkId } | null,
    limit: number,
  ): Promise<AccountRecord[]> {
    return accounts.listAccountsWithoutGrantEnd(this.core, platforms, after, limit);
  }

  fillGrantEnd(userId: string, platform: NetworkId, grantEndsAt: number, expected: string): Promise<boolean> {
    return accounts.fillGrantEnd(this.core, userId, platform, grantEndsAt, expected);
  }

  putOAuthState(record: OAuthStateRecord): Promise<void> {
    return accounts.putOAuthState(this.core, record);
  }

  takeOAuthState(stateHash: string, now: number): Promise<OAuthStateRecord | null> {
    return accounts.takeOAuthState(this.core, stateHash, now);
  }

  // ── posts ────────────────────────────────────────────────────────────────────────────────────────
  insertPost(post: PostRecord, targets: TargetRecord[], effects?: Effects): Promise<void> {
    return posts.insertPost(this.core, post, targets, effects);
  }

  getPost(userId: string, id: string): Promise<PostRecord | null> {
    return posts.getPost(this.core, userId, id);
  }

  listPosts(userId: string, options: ListPostsOptions): Promise<PostRecord[]> {
    return posts.listPosts(this.core, userId, options);
  }

  countPostsCreatedSince(userId: string, since: number): Promise<number> {
    return posts.countPostsCreatedSince(this.core, userId, since);
  }

  getTargets(postId: string): Promise<TargetRecord[]> {
    return posts.getTargets(this.core, postId);
  }

  sumTargetMetrics(postIds: readonly string[]): Promise<Map<string, TargetMetrics>> {
    return posts.sumTargetMetrics(this.core, postIds);
  }

  deletePost(
    userId: string,
    id: string,
    effectsFor?: (post: PostRecord) => Effects,
  ): Promise<PostRecord | null> {
    return posts.deletePost(this.core, userId, id, effectsFor);
  }

  transitionPost(
    id: string,
    from: PostStatus[],
    patch: PostPatch,
    targets?: TargetRecord[],
    effects?: Effects | ((post: PostRecord) => Effects),
  ): Promise<PostRecord | null> {
    return posts.transitionPost(this.core, id, from, patch, targets, effects);
  }

  claimDuePosts(now: number, limit: number): Promise<PostRecord[]> {
    return posts.claimDuePosts(this.core, now, limit);
  }

  nextDueAt(): Promise<number | null> {
    return posts.nextDueAt(this.core);
  }

  releaseInterruptedPublishing(): Promise<number> {
    return posts.releaseInterruptedPublishing();
  }

  // ── publishing targets ───────────────────────────────────────────────────────────────────────────
  async beginTargetAttempts(
    postId: string,
    platforms: readonly NetworkId[],
    now: number,
  ): Promise<TargetRecord[]> {
    if (platforms.length === 0) return [];
    const { started } = await this.batches.startAttempts.load({ postId, platforms, now });
    return started.sort((a, b) => platforms.indexOf(a.platform) - platforms.indexOf(b.platform));
  }

  beginAllAttempts(
    postId: string,
    now: number,
  ): Promise<{ targets: TargetRecord[]; started: TargetRecord[] }> {
    return this.batches.startAttempts.load({ postId, platforms: null, now });
  }

  claimDueTargets(now: number, limit: number): Promise<ClaimedTarget[]> {
    return publishing.claimDueTargets(this.core, now, limit);
  }

  nextTargetAttemptAt(): Promise<number | null> {
    return publishing.nextTargetAttemptAt(this.core);
  }

  finishTargets(
    postId: string,
    targets: readonly TargetRecord[],
    now: number,
    effects?: Effects | ((post: PostRecord, written: ReadonlySet<NetworkId>) => Effects),
  ): Promise<PostRecord | null> {
    return this.finishes.finish({ postId, targets, now, effects });
  }

  saveTargetStep(
    postId: string,
    platform: NetworkId,
    attempts: number,
    step: string | null,
  ): Promise<boolean> {
    return publishing.saveTargetStep(this.core, postId, platform, attempts, step);
  }

  oldestAttemptInFlight(): Promise<number | null> {
    return publishing.oldestAttemptInFlight(this.core);
  }

  releaseInterruptedTargets(startedBefore: number, now: number): Promise<number> {
    return publishing.releaseInterruptedTargets(this.core, startedBefore, now);
  }

  recentAttempts(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    since: number,
  ): Promise<RecentAttempt[]> {
    return this.batches.recentAttempts.load({ userId, mode, platform, since });
  }

  // ── metrics and analytics ────────────────────────────────────────────────────────────────────────
  claimDueMetricReads(now: number, leaseUntil: number, limit: number): Promise<ClaimedTarget[]> {
    return analytics.claimDueMetricReads(this.core, now, leaseUntil, limit);
  }

  nextMetricsReadAt(): Promise<number | null> {
    return analytics.nextMetricsReadAt(this.core);
  }

  scheduleMetricsRead(
    postId: string,
    platform: NetworkId,
    dueAt: number | null,
    reads: number,
  ): Promise<void> {
    return analytics.scheduleMetricsRead(this.core, postId, platform, dueAt, reads);
  }

  reportMetrics(
    postId: string,
    platform: NetworkId,
    metrics: TargetMetrics,
    effectsFor?: (target: TargetRecord) => Effects,
  ): Promise<TargetRecord | null> {
    return analytics.reportMetrics(this.core, postId, platform, metrics, effectsFor);
  }

  listPublishedTargets(userId: string): Promise<TargetRecord[]> {
    return analytics.listPublishedTargets(this.core, userId);
  }

  countPublishedPosts(userId: string): Promise<number> {
    return analytics.countPublishedPosts(this.core, userId);
  }

  sumPublishedMetricsByPlatform(userId: string): Promise<PlatformTotals[]> {
    return analytics.sumPublishedMetricsByPlatform(this.core, userId);
  }

  // ── webhooks ─────────────────────────────────────────────────────────────────────────────────────
  createWebhook(webhook: WebhookRecord, effects?: Effects): Promise<void> {
    return webhooks.createWebhook(this.core, webhook, effects);
  }

  listWebhooks(userId: string): Promise<WebhookRecord[]> {
    return webhooks.listWebhooks(this.core, userId);
  }

  getWebhook(userId: string, id: string): Promise<WebhookRecord | null> {
    return webhooks.getWebhook(this.core, userId, id);
  }

  deleteWebhook(userId: string, id: string, effects?: Effects): Promise<boolean> {
    return webhooks.deleteWebhook(this.core, userId, id, effects);
  }

  setWebhookStatus(id: string, status: WebhookStatus): Promise<void> {
    return webhooks.setWebhookStatus(this.core, id, status);
  }

  listWebhookSecrets(): Promise<Pick<WebhookRecord, "id" | "user_id" | "secret">[]> {
    return webhooks.listWebhookSecrets(this.core);
  }

  setWebhookSecret(id: string, secret: string, expected: string): Promise<boolean> {
    return webhooks.setWebhookSecret(this.core, id, secret, expected);
  }

  updateWebhook(userId: string, id: string, patch: WebhookPatch): Promise<WebhookRecord | null> {
    return webhooks.updateWebhook(this.core, userId, id, patch);
  }

  // ── the outbox and deliveries ────────────────────────────────────────────────────────────────────
  appendEvents(events: NewEvent[], effects?: Effects): Promise<void> {
    return outbox.appendEvents(this.core, events, effects);
  }

  claimDueDeliveries(
    now: number,
    leaseUntil: number,
    limit: number,
    options?: ClaimOptions,
  ): Promise<DeliveryJob[]> {
    return outbox.claimDueDeliveries(this.core, now, leaseUntil, limit, options);
  }

  recordAttempt(
    attempt: Omit<AttemptRecord, "next_attempt_at">,
    next: { state: DeliveryState; next_attempt_at: number | null },
  ): Promise<void> {
    return outbox.recordAttempt(this.core, attempt, next);
  }

  nextDeliveryAt(options?: { excludeWebhookIds?: readonly string[] }): Promise<number | null> {
    return outbox.nextDeliveryAt(this.core, options);
  }

  listAttempts(webhookId: string, options: ListAttemptsOptions): Promise<AttemptLogEntry[]> {
    return outbox.listAttempts(this.core, webhookId, options);
  }

  resendEvent(
    webhookId: string,
    eventId: string,
    now: number,
    effectsFor?: (delivery: DeliveryRecord) => Effects,
  ): Promise<DeliveryRecord | null> {
    return outbox.resendEvent(this.core, webhookId, eventId, now, effectsFor);
  }

  listEvents(userId: string): Promise<NewEvent[]> {
    return outbox.listEvents(this.core, userId);
  }

  pruneDeliveryHistory(before: number, limit: number): Promise<number> {
    return outbox.pruneDeliveryHistory(this.core, before, limit);
  }

  // ── metrics and analytics ────────────────────────────────────────────────────────────────────────
  lastAnalyticsDay(userId: string): Promise<string | null> {
    return analytics.lastAnalyticsDay(this.core, userId);
  }

  settleAnalyticsDay(userId: string, date: string, events: NewEvent[]): Promise<boolean> {
    return analytics.settleAnalyticsDay(this.core, userId, date, events);
  }

  // ── idempotency keys ─────────────────────────────────────────────────────────────────────────────
  beginIdempotentRequest(record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    return idempotency.beginIdempotentRequest(this.core, record);
  }

  findIdempotentRequest(userId: string, key: string, now: number): Promise<IdempotencyRecord | null> {
    return idempotency.findIdempotentRequest(this.core, userId, key, now);
  }

  completeIdempotentRequest(
    userId: string,
    key: string,
    response: { status: number; body: string; expires_at: number },
  ): Promise<void> {
    return idempotency.completeIdempotentRequest(this.core, userId, key, response);
  }

  releaseIdempotentRequest(userId: string, key: string): Promise<void> {
    return idempotency.releaseIdempotentRequest(this.core, userId, key);
  }

  releaseInterruptedIdempotentRequests(): Promise<number> {
    return idempotency.releaseInterruptedIdempotentRequests();
  }

  /** Removes records that expired before `now`, a batch at a time (the retention pass calls it). */
  pruneExpiredIdempotencyKeys(now: number, limit = 1000): Promise<number> {
    return idempotency.pruneExpiredIdempotencyKeys(this.core, now, limit);
  }

  // ── media ────────────────────────────────────────────────────────────────────────────────────────
  insertMedia(media: MediaRecord, effects?: Effects): Promise<void> {
    return mediaRecords.insertMedia(this.core, media, effects);
  }

  getMedia(userId: string, id: string): Promise<MediaRecord | null> {
    return mediaRecords.getMedia(this.core, userId, id);
  }

  // ── the outbox and deliveries ────────────────────────────────────────────────────────────────────

  // ── beyond the Store interface: operations and tests ──────────────────────────────────────────

  /** Every attempt made for a delivery, oldest first. */
  listDeliveryAttempts(deliveryId: string): Promise<AttemptRecord[]> {
    return outbox.listDeliveryAttempts(this.core, deliveryId);
  }

  /** The deliveries of one event, oldest first. */
  listDeliveries(eventId: string): Promise<DeliveryRecord[]> {
    return outbox.listDeliveries(this.core, eventId);
  }
}

/** Opens the store at `url`, migrating its schema. */
export function openPostgresStore(
  url: string,
  options: Omit<PostgresStoreOptions, "url"> = {},
): Promise<PostgresStore> {
  return PostgresStore.open({ ...options, url });
}
