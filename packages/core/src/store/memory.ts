import type { NetworkId } from "../contract/networks.ts";
import type { PostStatus } from "../contract/resources.ts";
import * as accounts from "./memory/accounts.ts";
import * as analytics from "./memory/analytics.ts";
import * as idempotency from "./memory/idempotency.ts";
import * as keys from "./memory/keys.ts";
import * as mediaRecords from "./memory/media.ts";
import * as outbox from "./memory/outbox.ts";
import * as posts from "./memory/posts.ts";
import * as publishing from "./memory/publishing.ts";
import { MemoryTables } from "./memory/tables.ts";
import * as webhooks from "./memory/webhooks.ts";
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
  NewEvent,
  OAuthStateRecord,
  PlatformTotals,
  PostPatch,
  PostRecord,
  RecentAttempt,
  Store,
  TargetMetrics,
  TargetRecord,
  UserRecord,
  WebhookPatch,
  WebhookRecord,
  WebhookStatus,
} from "./types.ts";

/**
 * The Store kept in memory, for tests, examples and the in-process service: its tables
 * (memory/tables.ts) and one module per area of the Store interface, each a set of functions of them. Every method runs to
 * completion without awaiting anything, so each one is atomic in JavaScript's single thread — the same
 * guarantee a SQL store gets from a transaction. Records are copied on the way in and out so a caller
 * can never change stored state by mutating an object it holds.
 */
export class MemoryStore implements Store {
  readonly shared = false;
  private readonly tables = new MemoryTables();

  async ping(): Promise<void> {
    if (this.tables.closed) throw new Error("The memory store is closed.");
  }

  async close(): Promise<void> {
    this.tables.closed = true;
  }

  // Users, keys and usage
  createUser(user: UserRecord): Promise<void> {
    return keys.createUser(this.tables, user);
  }

  getUser(id: string): Promise<UserRecord | null> {
    return keys.getUser(this.tables, id);
  }

  findUserByEmail(email: string): Promise<UserRecord | null> {
    return keys.findUserByEmail(this.tables, email);
  }

  listUsers(): Promise<UserRecord[]> {
    return keys.listUsers(this.tables);
  }

  createKey(key: ApiKeyRecord): Promise<void> {
    return keys.createKey(this.tables, key);
  }

  findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    return keys.findKeyByHash(this.tables, hash);
  }

  listKeys(userId: string): Promise<ApiKeyRecord[]> {
    return keys.listKeys(this.tables, userId);
  }

  revokeKey(id: string, at: number, effects?: Effects): Promise<boolean> {
    return keys.revokeKey(this.tables, id, at, effects);
  }

  markKeyUsed(id: string, at: number): Promise<void> {
    return keys.markKeyUsed(this.tables, id, at);
  }

  authorizeCall(keyHash: string, month: string): Promise<AuthorizedCall | null> {
    return keys.authorizeCall(this.tables, keyHash, month);
  }

  incrementApiCalls(userId: string, month: string): Promise<number> {
    return keys.incrementApiCalls(this.tables, userId, month);
  }

  getApiCalls(userId: string, month: string): Promise<number> {
    return keys.getApiCalls(this.tables, userId, month);
  }

  // Accounts and OAuth connects under way
  listAccounts(userId: string, mode: KeyMode): Promise<AccountRecord[]> {
    return accounts.listAccounts(this.tables, userId, mode);
  }

  getAccount(userId: string, mode: KeyMode, platform: NetworkId): Promise<AccountRecord | null> {
    return accounts.getAccount(this.tables, userId, mode, platform);
  }

  putAccount(account: AccountRecord, effects?: Effects): Promise<void> {
    return accounts.putAccount(this.tables, account, effects);
  }

  updateAccount(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    patch: AccountPatch,
    effectsFor?: (before: AccountRecord, after: AccountRecord) => Effects,
  ): Promise<AccountRecord | null> {
    return accounts.updateAccount(this.tables, userId, mode, platform, patch, effectsFor);
  }

  setAccountCredentials(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    credentials: string,
    expected?: string,
  ): Promise<boolean> {
    return accounts.setAccountCredentials(this.tables, userId, mode, platform, credentials, expected);
  }

  deleteAccount(userId: string, mode: KeyMode, platform: NetworkId, effects?: Effects): Promise<boolean> {
    return accounts.deleteAccount(this.tables, userId, mode, platform, effects);
  }

  countAccountsWithCredentials(): Promise<number> {
    return accounts.countAccountsWithCredentials(this.tables);
  }

  settleEndingGrants(
    now: number,
    aheadMs: number,
    limit: number,
    effectsFor?: (account: AccountRecord) => Effects,
  ): Promise<AccountRecord[]> {
    return accounts.settleEndingGrants(this.tables, now, aheadMs, limit, effectsFor);
  }

  nextGrantChangeAt(aheadMs: number): Promise<number | null> {
    return accounts.nextGrantChangeAt(this.tables, aheadMs);
  }

  listAccountsWithoutGrantEnd(
    platforms: readonly NetworkId[],
    after: { user_id: string; platform: NetworkId } | null,
    limit: number,
  ): Promise<AccountRecord[]> {
    return accounts.listAccountsWithoutGrantEnd(this.tables, platforms, after, limit);
  }

  fillGrantEnd(userId: string, platform: NetworkId, grantEndsAt: number, expected: string): Promise<boolean> {
    return accounts.fillGrantEnd(this.tables, userId, platform, grantEndsAt, expected);
  }

  putOAuthState(record: OAuthStateRecord): Promise<void> {
    return accounts.putOAuthState(this.tables, record);
  }

  takeOAuthState(stateHash: string, now: number): Promise<OAuthStateRecord | null> {
    return accounts.takeOAuthState(this.tables, stateHash, now);
  }

  // Posts
  insertPost(post: PostRecord, targets: TargetRecord[], effects?: Effects): Promise<void> {
    return posts.insertPost(this.tables, post, targets, effects);
  }

  getPost(userId: string, id: string): Promise<PostRecord | null> {
    return posts.getPost(this.tables, userId, id);
  }

  listPosts(userId: string, options: ListPostsOptions): Promise<PostRecord[]> {
    return posts.listPosts(this.tables, userId, options);
  }

  countPostsCreatedSince(userId: string, since: number): Promise<number> {
    return posts.countPostsCreatedSince(this.tables, userId, since);
  }

  getTargets(postId: string): Promise<TargetRecord[]> {
    return posts.getTargets(this.tables, postId);
  }

  sumTargetMetrics(postIds: readonly string[]): Promise<Map<string, TargetMetrics>> {
    return posts.sumTargetMetrics(this.tables, postIds);
  }

  deletePost(
    userId: string,
    id: string,
    effectsFor?: (post: PostRecord) => Effects,
  ): Promise<PostRecord | null> {
    return posts.deletePost(this.tables, userId, id, effectsFor);
  }

  transitionPost(
    id: string,
    from: PostStatus[],
    patch: PostPatch,
    targets?: TargetRecord[],
    effects?: Effects | ((post: PostRecord) => Effects),
  ): Promise<PostRecord | null> {
    return posts.transitionPost(this.tables, id, from, patch, targets, effects);
  }

  claimDuePosts(now: number, limit: number): Promise<PostRecord[]> {
    return posts.claimDuePosts(this.tables, now, limit);
  }

  nextDueAt(): Promise<number | null> {
    return posts.nextDueAt(this.tables);
  }

  releaseInterruptedPublishing(): Promise<number> {
    return posts.releaseInterruptedPublishing(this.tables);
  }

  // Publishing targets
  beginTargetAttempts(postId: string, platforms: readonly NetworkId[], now: number): Promise<TargetRecord[]> {
    return publishing.beginTargetAttempts(this.tables, postId, platforms, now);
  }

  claimDueTargets(now: number, limit: number): Promise<ClaimedTarget[]> {
    return publishing.claimDueTargets(this.tables, now, limit);
  }

  nextTargetAttemptAt(): Promise<number | null> {
    return publishing.nextTargetAttemptAt(this.tables);
  }

  finishTargets(
    postId: string,
    targets: readonly TargetRecord[],
    now: number,
    effects?: Effects | ((post: PostRecord, written: ReadonlySet<NetworkId>) => Effects),
  ): Promise<PostRecord | null> {
    return publishing.finishTargets(this.tables, postId, targets, now, effects);
  }

  saveTargetStep(
    postId: string,
    platform: NetworkId,
    attempts: number,
    step: string | null,
  ): Promise<boolean> {
    return publishing.saveTargetStep(this.tables, postId, platform, attempts, step);
  }

  oldestAttemptInFlight(): Promise<number | null> {
    return publishing.oldestAttemptInFlight(this.tables);
  }

  releaseInterruptedTargets(startedBefore: number, now: number): Promise<number> {
    return publishing.releaseInterruptedTargets(this.tables, startedBefore, now);
  }

  recentAttempts(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    since: number,
  ): Promise<RecentAttempt[]> {
    return publishing.recentAttempts(this.tables, userId, mode, platform, since);
  }

  // Metrics and analytics
  claimDueMetricReads(now: number, leaseUntil: number, limit: number): Promise<ClaimedTarget[]> {
    return analytics.claimDueMetricReads(this.tables, now, leaseUntil, limit);
  }

  nextMetricsReadAt(): Promise<number | null> {
    return analytics.nextMetricsReadAt(this.tables);
  }

  scheduleMetricsRead(
    postId: string,
    platform: NetworkId,
    dueAt: number | null,
    reads: number,
  ): Promise<void> {
    return analytics.scheduleMetricsRead(this.tables, postId, platform, dueAt, reads);
  }

  reportMetrics(
    postId: string,
    platform: NetworkId,
    metrics: TargetMetrics,
    effectsFor?: (target: TargetRecord) => Effects,
  ): Promise<TargetRecord | null> {
    return analytics.reportMetrics(this.tables, postId, platform, metrics, effectsFor);
  }

  listPublishedTargets(userId: string): Promise<TargetRecord[]> {
    return analytics.listPublishedTargets(this.tables, userId);
  }

  countPublishedPosts(userId: string): Promise<number> {
    return analytics.countPublishedPosts(this.tables, userId);
  }

  sumPublishedMetricsByPlatform(userId: string): Promise<PlatformTotals[]> {
    return analytics.sumPublishedMetricsByPlatform(this.tables, userId);
  }

  // Webhooks
  createWebhook(webhook: WebhookRecord, effects?: Effects): Promise<void> {
    return webhooks.createWebhook(this.tables, webhook, effects);
  }

  listWebhooks(userId: string): Promise<WebhookRecord[]> {
    return webhooks.listWebhooks(this.tables, userId);
  }

  getWebhook(userId: string, id: string): Promise<WebhookRecord | null> {
    return webhooks.getWebhook(this.tables, userId, id);
  }

  deleteWebhook(userId: string, id: string, effects?: Effects): Promise<boolean> {
    return webhooks.deleteWebhook(this.tables, userId, id, effects);
  }

  setWebhookStatus(id: string, status: WebhookStatus): Promise<void> {
    return webhooks.setWebhookStatus(this.tables, id, status);
  }

  updateWebhook(userId: string, id: string, patch: WebhookPatch): Promise<WebhookRecord | null> {
    return webhooks.updateWebhook(this.tables, userId, id, patch);
  }

  listWebhookSecrets(): Promise<Pick<WebhookRecord, "id" | "user_id" | "secret">[]> {
    return webhooks.listWebhookSecrets(this.tables);
  }

  setWebhookSecret(id: string, secret: string, expected: string): Promise<boolean> {
    return webhooks.setWebhookSecret(this.tables, id, secret, expected);
  }

  // The outbox and deliveries
  appendEvents(events: NewEvent[], effects?: Effects): Promise<void> {
    return outbox.appendEvents(this.tables, events, effects);
  }

  claimDueDeliveries(
    now: number,
    leaseUntil: number,
    limit: number,
    options?: ClaimOptions,
  ): Promise<DeliveryJob[]> {
    return outbox.claimDueDeliveries(this.tables, now, leaseUntil, limit, options);
  }

  recordAttempt(
    attempt: Omit<AttemptRecord, "next_attempt_at">,
    next: { state: DeliveryState; next_attempt_at: number | null },
  ): Promise<void> {
    return outbox.recordAttempt(this.tables, attempt, next);
  }

  nextDeliveryAt(options?: { excludeWebhookIds?: readonly string[] }): Promise<number | null> {
    return outbox.nextDeliveryAt(this.tables, options);
  }

  listAttempts(webhookId: string, options: ListAttemptsOptions): Promise<AttemptLogEntry[]> {
    return outbox.listAttempts(this.tables, webhookId, options);
  }

  resendEvent(
    webhookId: string,
    eventId: string,
    now: number,
    effectsFor?: (delivery: DeliveryRecord) => Effects,
  ): Promise<DeliveryRecord | null> {
    return outbox.resendEvent(this.tables, webhookId, eventId, now, effectsFor);
  }

  listEvents(userId: string): Promise<NewEvent[]> {
    return outbox.listEvents(this.tables, userId);
  }

  pruneDeliveryHistory(before: number, limit: number): Promise<number> {
    return outbox.pruneDeliveryHistory(this.tables, before, limit);
  }

  // Idempotency keys
  beginIdempotentRequest(record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    return idempotency.beginIdempotentRequest(this.tables, record);
  }

  findIdempotentRequest(userId: string, key: string, now: number): Promise<IdempotencyRecord | null> {
    return idempotency.findIdempotentRequest(this.tables, userId, key, now);
  }

  completeIdempotentRequest(
    userId: string,
    key: string,
    response: { status: number; body: string; expires_at: number },
  ): Promise<void> {
    return idempotency.completeIdempotentRequest(this.tables, userId, key, response);
  }

  releaseIdempotentRequest(userId: string, key: string): Promise<void> {
    return idempotency.releaseIdempotentRequest(this.tables, userId, key);
  }

  releaseInterruptedIdempotentRequests(): Promise<number> {
    return idempotency.releaseInterruptedIdempotentRequests(this.tables);
  }

  // Metrics and analytics
  lastAnalyticsDay(userId: string): Promise<string | null> {
    return analytics.lastAnalyticsDay(this.tables, userId);
  }

  settleAnalyticsDay(userId: string, date: string, events: NewEvent[]): Promise<boolean> {
    return analytics.settleAnalyticsDay(this.tables, userId, date, events);
  }

  // Media
  insertMedia(media: MediaRecord, effects?: Effects): Promise<void> {
    return mediaRecords.insertMedia(this.tables, media, effects);
  }

  getMedia(userId: string, id: string): Promise<MediaRecord | null> {
    return mediaRecords.getMedia(this.tables, userId, id);
  }
}
