import type { NetworkId } from "../contract/networks.ts";
import type { AccountHealth, PostStatus } from "../contract/resources.ts";
import { newId } from "../ids.ts";
import { DeliveryClaim } from "./delivery-claim.ts";
import { IdempotencyKeyTaken } from "./idempotency-key-taken.ts";
import { settledPost } from "./settle.ts";
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
  IdempotencyAnswer,
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
  Store,
  TargetMetrics,
  TargetRecord,
  UserRecord,
  WebhookPatch,
  WebhookRecord,
  WebhookStatus,
} from "./types.ts";

const copy = <T>(value: T): T => structuredClone(value);

const accountKey = (userId: string, mode: KeyMode, platform: NetworkId) => `${userId}|${mode}|${platform}`;
/** Code-unit order, as SQLite compares text and as paging by (user_id, platform) needs. */
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A target an attempt may start on now: pending, not in flight, and no later attempt time set. */
function isDue(target: TargetRecord, now: number): boolean {
  return (
    target.status === "pending" &&
    !target.in_flight &&
    (target.next_attempt_at === null || target.next_attempt_at <= now)
  );
}

function startAttempt(target: TargetRecord, now: number): void {
  target.in_flight = true;
  target.attempts += 1;
  target.attempted_at = now;
  target.next_attempt_at = null;
}

/** Overrides as every store keeps them: absent when there are none, never an empty object. */
function setCaptions(post: PostRecord, captions: PostRecord["captions"]): void {
  if (captions && Object.keys(captions).length > 0) post.captions = copy(captions);
  else delete post.captions;
}

/** The health a live account's ending grant calls for at `now` when it differs (settleEndingGrants). */
function endingGrantHealth(a: AccountRecord, now: number, aheadMs: number): AccountHealth | null {
  if (a.mode !== "live" || a.grant_ends_at === undefined) return null;
  if (a.health !== "reauth_required" && a.grant_ends_at <= now) return "reauth_required";
  if (a.health === "healthy" && a.grant_ends_at <= now + aheadMs) return "expiring";
  return null;
}

/**
 * The Store kept in memory, for tests, examples and the in-process service. Every method runs to
 * completion without awaiting anything, so each one is atomic in JavaScript's single thread — the same
 * guarantee a SQL store gets from a transaction. Records are copied on the way in and out so a caller
 * can never change stored state by mutating an object it holds.
 */
export class MemoryStore implements Store {
  readonly shared = false;
  private readonly users = new Map<string, UserRecord>();
  private readonly keys = new Map<string, ApiKeyRecord>();
  private readonly apiCalls = new Map<string, number>();
  private readonly accounts = new Map<string, AccountRecord>();
  private readonly oauthStates = new Map<string, OAuthStateRecord>();
  private readonly posts = new Map<string, PostRecord>();
  private readonly targets = new Map<string, TargetRecord[]>();
  /** Creation times of every post ever created per user, deleted ones included (monthly allowance). */
  private readonly postCreations = new Map<string, number[]>();
  private readonly webhooks = new Map<string, WebhookRecord>();
  private readonly events: NewEvent[] = [];
  private readonly eventsById = new Map<string, NewEvent>();
  private readonly deliveries = new Map<string, DeliveryRecord>();
  private attempts: AttemptRecord[] = [];
  private readonly media = new Map<string, MediaRecord>();
  private readonly idempotency = new Map<string, IdempotencyRecord>();
  /** The last day settled for analytics.daily, by user. */
  private readonly analyticsDays = new Map<string, string>();
  private closed = false;

  async ping(): Promise<void> {
    if (this.closed) throw new Error("The memory store is closed.");
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  // Users and keys

  async createUser(user: UserRecord): Promise<void> {
    if (this.users.has(user.id)) throw new Error(`User ${user.id} already exists.`);
    if ([...this.users.values()].some((u) => u.email === user.email)) {
      throw new Error(`A user with e-mail ${user.email} already exists.`);
    }
    this.users.set(user.id, copy(user));
  }

  async getUser(id: string): Promise<UserRecord | null> {
    const user = this.users.get(id);
    return user ? copy(user) : null;
  }

  async findUserByEmail(email: string): Promise<UserRecord | null> {
    const user = [...this.users.values()].find((u) => u.email === email);
    return user ? copy(user) : null;
  }

  async listUsers(): Promise<UserRecord[]> {
    return [...this.users.values()].sort((a, b) => a.created_at - b.created_at).map(copy);
  }

  async createKey(key: ApiKeyRecord): Promise<void> {
    if ([...this.keys.values()].some((k) => k.hash === key.hash || k.id === key.id)) {
      throw new Error(`Key ${key.id} already exists.`);
    }
    this.keys.set(key.id, copy(key));
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    const key = [...this.keys.values()].find((k) => k.hash === hash);
    return key ? copy(key) : null;
  }

  async listKeys(userId: string): Promise<ApiKeyRecord[]> {
    return [...this.keys.values()].filter((k) => k.user_id === userId).map(copy);
  }

  async revokeKey(id: string, at: number, effects?: Effects): Promise<boolean> {
    const key = this.keys.get(id);
    if (!key || key.revoked_at !== null) return false;
    key.revoked_at = at;
    this.writeEffects(effects);
    return true;
  }

  async markKeyUsed(id: string, at: number): Promise<void> {
    const key = this.keys.get(id);
    if (key && (key.last_used_at === undefined || key.last_used_at < at)) key.last_used_at = at;
  }

  // Usage

  async authorizeCall(keyHash: string, month: string): Promise<AuthorizedCall | null> {
    const key = [...this.keys.values()].find((k) => k.hash === keyHash);
    const user = key ? this.users.get(key.user_id) : undefined;
    if (!key || key.revoked_at !== null || !user) return null;
    const calls = this.addApiCall(user.id, month);
    return { key: copy(key), user: copy(user), calls, postsVersion: this.postsVersion };
  }

  /**
   * One version for every user's posts: any write to a post or its targets moves it, in the same
   * synchronous step as the change (AuthorizedCall.postsVersion). Per user would keep more pages
   * cached; one counter is simpler and exact.
   */
  private postsVersion = 0;

  private postsChanged(): void {
    this.postsVersion++;
  }

  async incrementApiCalls(userId: string, month: string): Promise<number> {
    return this.addApiCall(userId, month);
  }

  private addApiCall(userId: string, month: string): number {
    const k = `${userId}|${month}`;
    const next = (this.apiCalls.get(k) ?? 0) + 1;
    this.apiCalls.set(k, next);
    return next;
  }

  async getApiCalls(userId: string, month: string): Promise<number> {
    return this.apiCalls.get(`${userId}|${month}`) ?? 0;
  }

  // Accounts

  async listAccounts(userId: string, mode: KeyMode): Promise<AccountRecord[]> {
    return [...this.accounts.values()].filter((a) => a.user_id === userId && a.mode === mode).map(copy);
  }

  async getAccount(userId: string, mode: KeyMode, platform: NetworkId): Promise<AccountRecord | null> {
    const account = this.accounts.get(accountKey(userId, mode, platform));
    return account ? copy(account) : null;
  }

  async putAccount(account: AccountRecord, effects?: Effects): Promise<void> {
    const key = accountKey(account.user_id, account.mode, account.platform);
    // Replacing keeps the account's place in the order it was first connected (as SQLite's upsert does).
    const kept = copy(account);
    if (kept.grant_ends_at == null) delete kept.grant_ends_at;
    this.accounts.set(key, kept);
    this.writeEffects(effects);
  }

  async updateAccount(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    patch: AccountPatch,
    effectsFor?: (before: AccountRecord, after: AccountRecord) => Effects,
  ): Promise<AccountRecord | null> {
    const account = this.accounts.get(accountKey(userId, mode, platform));
    if (!account) return null;
    const before = copy(account);
    if (patch.handle !== undefined) account.handle = patch.handle;
    if (patch.followers !== undefined) account.followers = patch.followers;
    if (patch.health !== undefined) account.health = patch.health;
    this.writeEffects(effectsFor?.(before, copy(account)));
    return copy(account);
  }

  async setAccountCredentials(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    credentials: string,
    expected?: string,
  ): Promise<boolean> {
    const account = this.accounts.get(accountKey(userId, mode, platform));
    if (!account) return false;
    if (expected !== undefined && account.credentials !== expected) return false;
    account.credentials = credentials;
    return true;
  }

  async deleteAccount(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    effects?: Effects,
  ): Promise<boolean> {
    const removed = this.accounts.delete(accountKey(userId, mode, platform));
    if (removed) this.writeEffects(effects);
    return removed;
  }

  async countAccountsWithCredentials(): Promise<number> {
    return [...this.accounts.values()].filter((a) => a.credentials !== null).length;
  }

  async settleEndingGrants(
    now: number,
    aheadMs: number,
    limit: number,
    effectsFor?: (account: AccountRecord) => Effects,
  ): Promise<AccountRecord[]> {
    const due = [...this.accounts.values()]
      .filter((a) => endingGrantHealth(a, now, aheadMs) !== null)
      .sort((a, b) => a.grant_ends_at! - b.grant_ends_at!)
      .slice(0, limit);
    return due.map((account) => {
      account.health = endingGrantHealth(account, now, aheadMs)!;
      this.writeEffects(effectsFor?.(copy(account)));
      return copy(account);
    });
  }

  async nextGrantChangeAt(aheadMs: number): Promise<number | null> {
    let next: number | null = null;
    for (const a of this.accounts.values()) {
      if (a.mode !== "live" || a.grant_ends_at === undefined || a.health === "reauth_required") continue;
      const at = a.health === "healthy" ? a.grant_ends_at - aheadMs : a.grant_ends_at;
      if (next === null || at < next) next = at;
    }
    return next;
  }

  async listAccountsWithoutGrantEnd(
    platforms: readonly NetworkId[],
    after: { user_id: string; platform: NetworkId } | null,
    limit: number,
  ): Promise<AccountRecord[]> {
    const later = (a: AccountRecord) =>
      after === null ||
      a.user_id > after.user_id ||
      (a.user_id === after.user_id && a.platform > after.platform);
    return [...this.accounts.values()]
      .filter(
        (a) =>
          a.mode === "live" &&
          a.credentials !== null &&
          a.grant_ends_at === undefined &&
          platforms.includes(a.platform) &&
          later(a),
      )
      .sort((a, b) => byKey(a.user_id, b.user_id) || byKey(a.platform, b.platform))
      .slice(0, limit)
      .map(copy);
  }

  async fillGrantEnd(
    userId: string,
    platform: NetworkId,
    grantEndsAt: number,
    expected: string,
  ): Promise<boolean> {
    const account = this.accounts.get(accountKey(userId, "live", platform));
    if (!account || account.grant_ends_at !== undefined || account.credentials !== expected) return false;
    account.grant_ends_at = grantEndsAt;
    return true;
  }

  // OAuth connects under way

  async putOAuthState(record: OAuthStateRecord): Promise<void> {
    for (const [hash, pending] of this.oauthStates) {
      if (pending.expires_at <= record.created_at) this.oauthStates.delete(hash);
    }
    this.oauthStates.set(record.state_hash, copy(record));
  }

  async takeOAuthState(stateHash: string, now: number): Promise<OAuthStateRecord | null> {
    const pending = this.oauthStates.get(stateHash);
    if (!pending) return null;
    this.oauthStates.delete(stateHash);
    return pending.expires_at > now ? pending : null;
  }

  // Posts

  async insertPost(post: PostRecord, targets: TargetRecord[], effects?: Effects): Promise<void> {
    if (this.posts.has(post.id)) throw new Error(`Post ${post.id} already exists.`);
    // Before any change: a taken key leaves the store as it was, as a rolled-back transaction would.
    this.refuseTakenClaim(effects?.idempotency);
    this.postsChanged();
    const stored = copy(post);
    setCaptions(stored, post.captions);
    this.posts.set(post.id, stored);
    this.targets.set(post.id, copy(targets));
    const created = this.postCreations.get(post.user_id) ?? [];
    created.push(post.created_at);
    this.postCreations.set(post.user_id, created);
    this.writeEffects(effects);
  }

  async getPost(userId: string, id: string): Promise<PostRecord | null> {
    const post = this.posts.get(id);
    return post && post.user_id === userId ? copy(post) : null;
  }

  async listPosts(userId: string, options: ListPostsOptions): Promise<PostRecord[]> {
    const statuses = options.statuses && options.statuses.length > 0 ? new Set(options.statuses) : null;
    const before = options.beforeId;
    return [...this.posts.values()]
      .filter((p) => p.user_id === userId)
      .filter((p) => !statuses || statuses.has(p.status))
      .filter((p) => before === undefined || p.id < before)
      .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .slice(0, Math.max(0, options.limit))
      .map(copy);
  }

  async countPostsCreatedSince(userId: string, since: number): Promise<number> {
    return (this.postCreations.get(userId) ?? []).filter((at) => at >= since).length;
  }

  async getTargets(postId: string): Promise<TargetRecord[]> {
    return copy(this.targets.get(postId) ?? []);
  }

  async sumTargetMetrics(postIds: readonly string[]): Promise<Map<string, TargetMetrics>> {
    const sums = new Map<string, TargetMetrics>();
    for (const postId of postIds) {
      const targets = this.targets.get(postId);
      if (!targets || targets.length === 0) continue;
      const sum = { reach: 0, likes: 0, comments: 0, shares: 0 };
      for (const t of targets) {
        sum.reach += t.reach;
        sum.likes += t.likes;
        sum.comments += t.comments;
        sum.shares += t.shares;
      }
      sums.set(postId, sum);
    }
    return sums;
  }

  async deletePost(
    userId: string,
    id: string,
    effectsFor?: (post: PostRecord) => Effects,
  ): Promise<PostRecord | null> {
    this.postsChanged();
    const post = this.posts.get(id);
    if (!post || post.user_id !== userId) return null;
    const effects = effectsFor?.(copy(post));
    this.posts.delete(id);
    this.targets.delete(id);
    this.writeEffects(effects);
    return copy(post);
  }

  async transitionPost(
    id: string,
    from: PostStatus[],
    patch: PostPatch,
    targets?: TargetRecord[],
    effects?: Effects | ((post: PostRecord) => Effects),
  ): Promise<PostRecord | null> {
    this.postsChanged();
    const post = this.posts.get(id);
    if (!post || !from.includes(post.status)) return null;
    if (patch.status !== undefined) post.status = patch.status;
    if (patch.scheduled_at !== undefined) post.scheduled_at = patch.scheduled_at;
    if (patch.published_at !== undefined) post.published_at = patch.published_at;
    if (patch.caption !== undefined) post.caption = patch.caption;
    if (patch.platforms !== undefined) post.platforms = copy(patch.platforms);
    if (patch.media !== undefined) post.media = patch.media;
    if (patch.captions !== undefined) setCaptions(post, patch.captions);
    if (targets) this.targets.set(id, copy(targets));
    this.writeEffects(typeof effects === "function" ? effects(copy(post)) : effects);
    return copy(post);
  }

  async claimDuePosts(now: number, limit: number): Promise<PostRecord[]> {
    this.postsChanged();
    const due = [...this.posts.values()]
      .filter((p) => p.status === "scheduled" && p.scheduled_at !== null && p.scheduled_at <= now)
      .sort((a, b) => a.scheduled_at! - b.scheduled_at! || (a.id < b.id ? -1 : 1))
      .slice(0, Math.max(0, limit));
    for (const post of due) post.status = "publishing";
    return due.map(copy);
  }

  async nextDueAt(): Promise<number | null> {
    let next: number | null = null;
    for (const p of this.posts.values()) {
      if (p.status === "scheduled" && p.scheduled_at !== null && (next === null || p.scheduled_at < next)) {
        next = p.scheduled_at;
      }
    }
    return next;
  }

  async releaseInterruptedPublishing(): Promise<number> {
    this.postsChanged();
    let released = 0;
    for (const post of this.posts.values()) {
      if (post.status !== "publishing") continue;
      post.status = "scheduled";
      post.scheduled_at ??= post.created_at;
      released++;
    }
    return released;
  }

  // Publishing targets

  async beginTargetAttempts(
    postId: string,
    platforms: readonly NetworkId[],
    now: number,
  ): Promise<TargetRecord[]> {
    this.postsChanged();
    const started: TargetRecord[] = [];
    for (const target of this.targets.get(postId) ?? []) {
      if (!platforms.includes(target.platform) || !isDue(target, now)) continue;
      startAttempt(target, now);
      started.push(copy(target));
    }
    return started;
  }

  async claimDueTargets(now: number, limit: number): Promise<ClaimedTarget[]> {
    this.postsChanged();
    const due: { post: PostRecord; target: TargetRecord }[] = [];
    for (const [postId, targets] of this.targets) {
      const post = this.posts.get(postId);
      if (!post || (post.status !== "publishing" && post.status !== "published")) continue;
      for (const target of targets) {
        if (target.next_attempt_at !== null && isDue(target, now)) due.push({ post, target });
      }
    }
    due.sort((a, b) => a.target.next_attempt_at! - b.target.next_attempt_at!);
    return due.slice(0, Math.max(0, limit)).map(({ post, target }) => {
      startAttempt(target, now);
      return { post: copy(post), target: copy(target) };
    });
  }

  async nextTargetAttemptAt(): Promise<number | null> {
    let next: number | null = null;
    for (const targets of this.targets.values()) {
      for (const t of targets) {
        if (t.status !== "pending" || t.in_flight || t.next_attempt_at === null) continue;
        if (next === null || t.next_attempt_at < next) next = t.next_attempt_at;
      }
    }
    return next;
  }

  async finishTargets(
    postId: string,
    targets: readonly TargetRecord[],
    now: number,
    effects?: Effects | ((post: PostRecord, written: ReadonlySet<NetworkId>) => Effects),
  ): Promise<PostRecord | null> {
    this.postsChanged();
    const post = this.posts.get(postId);
    const stored = this.targets.get(postId);
    if (!post || !stored) return null;
    // Settled before this write: final (see Store.finishTargets).
    const final = new Set(stored.filter((t) => t.status !== "pending").map((t) => t.platform));
    const written = new Set<NetworkId>();
    for (const target of targets) {
      const at = stored.findIndex((t) => t.platform === target.platform);
      if (at < 0 || final.has(target.platform)) continue;
      stored[at] = copy(target);
      written.add(target.platform);
    }
    Object.assign(post, settledPost(post, stored, now));
    this.writeEffects(typeof effects === "function" ? effects(copy(post), written) : effects);
    return copy(post);
  }

  async saveTargetStep(
    postId: string,
    platform: NetworkId,
    attempts: number,
    step: string | null,
  ): Promise<boolean> {
    const target = this.targets.get(postId)?.find((t) => t.platform === platform);
    if (!target?.in_flight || target.attempts !== attempts) return false;
    target.publish_step = step;
    return true;
  }

  async oldestAttemptInFlight(): Promise<number | null> {
    let oldest: number | null = null;
    for (const targets of this.targets.values()) {
      for (const t of targets) {
        if (t.in_flight && t.attempted_at !== null && (oldest === null || t.attempted_at < oldest))
          oldest = t.attempted_at;
      }
    }
    return oldest;
  }

  async releaseInterruptedTargets(startedBefore: number, now: number): Promise<number> {
    this.postsChanged();
    let released = 0;
    for (const targets of this.targets.values()) {
      for (const t of targets) {
        if (!t.in_flight || (t.attempted_at ?? 0) >= startedBefore) continue;
        t.in_flight = false;
        t.outcome_unknown = true;
        t.next_attempt_at = now;
        released++;
      }
    }
    return released;
  }

  async recentAttemptTimes(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    since: number,
  ): Promise<number[]> {
    const times: number[] = [];
    for (const post of this.posts.values()) {
      if (post.user_id !== userId || post.mode !== mode) continue;
      const t = this.targets.get(post.id)?.find((x) => x.platform === platform);
      if (t?.attempted_at != null && t.attempted_at >= since) times.push(t.attempted_at);
    }
    return times.sort((a, b) => a - b);
  }

  async claimDueMetricReads(now: number, leaseUntil: number, limit: number): Promise<ClaimedTarget[]> {
    this.postsChanged();
    const due: { post: PostRecord; target: TargetRecord }[] = [];
    for (const [postId, targets] of this.targets) {
      const post = this.posts.get(postId);
      if (!post) continue;
      for (const target of targets) {
        if (target.status === "published" && target.metrics_due_at !== null && target.metrics_due_at <= now) {
          due.push({ post, target });
        }
      }
    }
    due.sort((a, b) => a.target.metrics_due_at! - b.target.metrics_due_at!);
    return due.slice(0, Math.max(0, limit)).map(({ post, target }) => {
      target.metrics_due_at = leaseUntil;
      return { post: copy(post), target: copy(target) };
    });
  }

  async nextMetricsReadAt(): Promise<number | null> {
    let next: number | null = null;
    for (const targets of this.targets.values()) {
      for (const t of targets) {
        if (t.status !== "published" || t.metrics_due_at === null) continue;
        if (next === null || t.metrics_due_at < next) next = t.metrics_due_at;
      }
    }
    return next;
  }

  async scheduleMetricsRead(
    postId: string,
    platform: NetworkId,
    dueAt: number | null,
    reads: number,
  ): Promise<void> {
    this.postsChanged();
    const target = this.targets.get(postId)?.find((t) => t.platform === platform);
    if (!target) return;
    target.metrics_due_at = dueAt;
    target.metrics_reads = reads;
  }

  async reportMetrics(
    postId: string,
    platform: NetworkId,
    metrics: TargetMetrics,
    effectsFor?: (target: TargetRecord) => Effects,
  ): Promise<TargetRecord | null> {
    this.postsChanged();
    const target = this.targets.get(postId)?.find((t) => t.platform === platform);
    if (!target) return null;
    target.reach = Math.max(target.reach, metrics.reach);
    target.likes = Math.max(target.likes, metrics.likes);
    target.comments = Math.max(target.comments, metrics.comments);
    target.shares = Math.max(target.shares, metrics.shares);
    this.writeEffects(effectsFor?.(copy(target)));
    return copy(target);
  }

  async listPublishedTargets(userId: string): Promise<TargetRecord[]> {
    const out: TargetRecord[] = [];
    for (const post of this.posts.values()) {
      if (post.user_id !== userId || post.status !== "published") continue;
      for (const t of this.targets.get(post.id) ?? []) if (t.status === "published") out.push(copy(t));
    }
    return out;
  }

  async countPublishedPosts(userId: string): Promise<number> {
    return [...this.posts.values()].filter((p) => p.user_id === userId && p.status === "published").length;
  }

  async sumPublishedMetricsByPlatform(userId: string): Promise<PlatformTotals[]> {
    const sums = new Map<NetworkId, PlatformTotals>();
    for (const post of this.posts.values()) {
      if (post.user_id !== userId || post.status !== "published") continue;
      for (const t of this.targets.get(post.id) ?? []) {
        if (t.status !== "published") continue;
        const sum = sums.get(t.platform) ?? {
          platform: t.platform,
          posts: 0,
          reach: 0,
          likes: 0,
          comments: 0,
          shares: 0,
        };
        sum.posts++;
        sum.reach += t.reach;
        sum.likes += t.likes;
        sum.comments += t.comments;
        sum.shares += t.shares;
        sums.set(t.platform, sum);
      }
    }
    return [...sums.values()];
  }

  // Webhooks and the outbox

  async createWebhook(webhook: WebhookRecord, effects?: Effects): Promise<void> {
    if (this.webhooks.has(webhook.id)) throw new Error(`Webhook ${webhook.id} already exists.`);
    this.webhooks.set(webhook.id, copy(webhook));
    this.writeEffects(effects);
  }

  async listWebhooks(userId: string): Promise<WebhookRecord[]> {
    return [...this.webhooks.values()]
      .filter((w) => w.user_id === userId)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map(copy);
  }

  async getWebhook(userId: string, id: string): Promise<WebhookRecord | null> {
    const webhook = this.webhooks.get(id);
    return webhook && webhook.user_id === userId ? copy(webhook) : null;
  }

  async deleteWebhook(userId: string, id: string, effects?: Effects): Promise<boolean> {
    const webhook = this.webhooks.get(id);
    if (!webhook || webhook.user_id !== userId) return false;
    this.webhooks.delete(id);
    // Nothing is owed to an endpoint that no longer exists.
    for (const [deliveryId, d] of this.deliveries)
      if (d.webhook_id === id) this.deliveries.delete(deliveryId);
    this.attempts = this.attempts.filter((a) => a.webhook_id !== id);
    this.writeEffects(effects);
    return true;
  }

  async setWebhookStatus(id: string, status: WebhookStatus): Promise<void> {
    const webhook = this.webhooks.get(id);
    if (!webhook) return;
    webhook.status = status;
    if (status === "disabled") this.endOwedTo(id);
  }

  async updateWebhook(userId: string, id: string, patch: WebhookPatch): Promise<WebhookRecord | null> {
    const webhook = this.webhooks.get(id);
    if (!webhook || webhook.user_id !== userId) return null;
    if (patch.url !== undefined) webhook.url = patch.url;
    if (patch.events !== undefined) webhook.events = [...patch.events];
    if (patch.status !== undefined) {
      webhook.status = patch.status;
      if (patch.status === "disabled") this.endOwedTo(id);
    }
    return copy(webhook);
  }

  async listWebhookSecrets(): Promise<Pick<WebhookRecord, "id" | "user_id" | "secret">[]> {
    return [...this.webhooks.values()].map(({ id, user_id, secret }) => ({ id, user_id, secret }));
  }

  async setWebhookSecret(id: string, secret: string, expected: string): Promise<boolean> {
    const webhook = this.webhooks.get(id);
    if (!webhook || webhook.secret !== expected) return false;
    webhook.secret = secret;
    return true;
  }

  async appendEvents(events: NewEvent[], effects?: Effects): Promise<void> {
    this.writeEffects({ events });
    this.writeEffects(effects);
  }

  async claimDueDeliveries(
    now: number,
    leaseUntil: number,
    limit: number,
    options: ClaimOptions = {},
  ): Promise<DeliveryJob[]> {
    const due = [...this.deliveries.values()]
      .filter((d) => d.state === "pending" && d.next_attempt_at !== null && d.next_attempt_at <= now)
      .sort((a, b) => a.next_attempt_at! - b.next_attempt_at! || (a.id < b.id ? -1 : 1));
    const claim = new DeliveryClaim(limit, options);
    const jobs: DeliveryJob[] = [];
    for (const delivery of due) {
      if (claim.full) break;
      const event = this.eventsById.get(delivery.event_id);
      const webhook = this.webhooks.get(delivery.webhook_id);
      if (!event || !webhook || webhook.status !== "enabled") {
        this.endIfPending(delivery);
        continue;
      }
      if (!claim.take(webhook.id)) continue;
      delivery.next_attempt_at = leaseUntil;
      jobs.push({ delivery: copy(delivery), event: copy(event), webhook: copy(webhook) });
    }
    return jobs;
  }

  async recordAttempt(
    attempt: Omit<AttemptRecord, "next_attempt_at">,
    next: { state: DeliveryState; next_attempt_at: number | null },
  ): Promise<void> {
    this.attempts.push({ ...copy(attempt), next_attempt_at: next.next_attempt_at });
    const delivery = this.deliveries.get(attempt.delivery_id);
    if (!delivery) return;
    delivery.attempts = Math.max(delivery.attempts, attempt.attempt);
    delivery.state = next.state;
    delivery.next_attempt_at = next.next_attempt_at;
  }

  async nextDeliveryAt(options: { excludeWebhookIds?: readonly string[] } = {}): Promise<number | null> {
    const excluded = new Set(options.excludeWebhookIds ?? []);
    let next: number | null = null;
    for (const d of this.deliveries.values()) {
      if (
        d.state === "pending" &&
        d.next_attempt_at !== null &&
        !excluded.has(d.webhook_id) &&
        (next === null || d.next_attempt_at < next)
      ) {
        next = d.next_attempt_at;
      }
    }
    return next;
  }

  async listAttempts(webhookId: string, options: ListAttemptsOptions): Promise<AttemptLogEntry[]> {
    const before = options.beforeId;
    return this.attempts
      .filter((a) => a.webhook_id === webhookId && (before === undefined || a.id < before))
      .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .slice(0, Math.max(0, options.limit))
      .flatMap((a) => {
        const event = this.eventsById.get(a.event_id);
        return event ? [{ ...copy(a), event_type: event.type }] : [];
      });
  }

  async resendEvent(
    webhookId: string,
    eventId: string,
    now: number,
    effectsFor?: (delivery: DeliveryRecord) => Effects,
  ): Promise<DeliveryRecord | null> {
    const webhook = this.webhooks.get(webhookId);
    const event = this.eventsById.get(eventId);
    if (!webhook || !event || event.user_id !== webhook.user_id) return null;
    const delivery: DeliveryRecord = {
      id: newId("dlv", now),
      event_id: event.id,
      webhook_id: webhook.id,
      state: "pending",
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    };
    this.deliveries.set(delivery.id, delivery);
    this.writeEffects(effectsFor?.(copy(delivery)));
    return copy(delivery);
  }

  async listEvents(userId: string): Promise<NewEvent[]> {
    return this.events.filter((e) => e.user_id === userId).map(copy);
  }

  async pruneDeliveryHistory(before: number, limit: number): Promise<number> {
    const owed = new Set<string>();
    for (const d of this.deliveries.values()) if (d.state === "pending") owed.add(d.event_id);
    const doomed = new Set(
      this.events
        .filter((e) => e.created * 1000 < before && !owed.has(e.id))
        .sort((a, b) => a.created - b.created)
        .slice(0, Math.max(0, limit))
        .map((e) => e.id),
    );
    if (doomed.size === 0) return 0;
    for (let i = this.events.length - 1; i >= 0; i--) {
      if (doomed.has(this.events[i]!.id)) this.events.splice(i, 1);
    }
    for (const id of doomed) this.eventsById.delete(id);
    for (const [id, d] of this.deliveries) if (doomed.has(d.event_id)) this.deliveries.delete(id);
    this.attempts = this.attempts.filter((a) => !doomed.has(a.event_id));
    return doomed.size;
  }

  // Idempotency keys

  async beginIdempotentRequest(record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    const k = `${record.user_id}|${record.key}`;
    const existing = this.idempotency.get(k);
    if (existing && existing.expires_at > record.created_at) return copy(existing);
    this.idempotency.set(k, copy(record));
    this.forgetExpiredKeys(record.created_at);
    return null;
  }

  /** Every thousandth key stored, expired records are dropped: the map stays bounded by the live ones. */
  private forgetExpiredKeys(now: number): void {
    if (this.idempotency.size % 1000 !== 0) return;
    for (const [id, r] of this.idempotency) if (r.expires_at <= now) this.idempotency.delete(id);
  }

  async findIdempotentRequest(userId: string, key: string, now: number): Promise<IdempotencyRecord | null> {
    const record = this.idempotency.get(`${userId}|${key}`);
    return record && record.expires_at > now ? copy(record) : null;
  }

  /** A write that claims its key (`IdempotencyAnswer.claim`) fails when a live record holds it. */
  private refuseTakenClaim(answer: IdempotencyAnswer | undefined): void {
    if (!answer?.claim) return;
    const existing = this.idempotency.get(`${answer.user_id}|${answer.key}`);
    if (existing && existing.expires_at > answer.created_at) {
      throw new IdempotencyKeyTaken(answer.user_id, answer.key);
    }
  }

  async completeIdempotentRequest(
    userId: string,
    key: string,
    response: { status: number; body: string; expires_at: number },
  ): Promise<void> {
    const record = this.idempotency.get(`${userId}|${key}`);
    if (!record) return;
    record.status = response.status;
    record.body = response.body;
    record.expires_at = response.expires_at;
  }

  async releaseIdempotentRequest(userId: string, key: string): Promise<void> {
    const k = `${userId}|${key}`;
    if (this.idempotency.get(k)?.status === null) this.idempotency.delete(k);
  }

  async releaseInterruptedIdempotentRequests(): Promise<number> {
    let released = 0;
    for (const [k, record] of this.idempotency) {
      if (record.status !== null) continue;
      this.idempotency.delete(k);
      released++;
    }
    return released;
  }

  // Daily analytics

  async lastAnalyticsDay(userId: string): Promise<string | null> {
    return this.analyticsDays.get(userId) ?? null;
  }

  async settleAnalyticsDay(userId: string, date: string, events: NewEvent[]): Promise<boolean> {
    const last = this.analyticsDays.get(userId);
    if (last !== undefined && last >= date) return false;
    this.analyticsDays.set(userId, date);
    this.writeEffects({ events });
    return true;
  }

  // Media

  async insertMedia(media: MediaRecord, effects?: Effects): Promise<void> {
    if (this.media.has(media.id)) throw new Error(`Media ${media.id} already exists.`);
    this.media.set(media.id, copy(media));
    this.writeEffects(effects);
  }

  async getMedia(userId: string, id: string): Promise<MediaRecord | null> {
    const media = this.media.get(id);
    return media && media.user_id === userId ? copy(media) : null;
  }

  /** A delivery that can no longer be made stops being owed: failed, never handed out again. */
  private endIfPending(delivery: DeliveryRecord): void {
    if (delivery.state !== "pending") return;
    delivery.state = "failed";
    delivery.next_attempt_at = null;
  }

  /** Nothing more is sent to a disabled endpoint: what it was still owed ends here. */
  private endOwedTo(webhookId: string): void {
    for (const d of this.deliveries.values()) if (d.webhook_id === webhookId) this.endIfPending(d);
  }

  /** The outbox (events, and one delivery per endpoint that should receive each) and a keyed answer. */
  private writeEffects(effects: Effects | undefined): void {
    const answer = effects?.idempotency;
    if (answer) {
      const { claim, ...record } = answer;
      this.idempotency.set(`${answer.user_id}|${answer.key}`, copy(record));
      if (claim) this.forgetExpiredKeys(answer.created_at);
    }
    for (const event of effects?.events ?? []) {
      const stored = copy(event);
      this.events.push(stored);
      this.eventsById.set(stored.id, stored);
      const endpoints = [...this.webhooks.values()].filter((w) =>
        event.webhook_id !== undefined
          ? w.id === event.webhook_id
          : w.user_id === event.user_id && w.status === "enabled" && w.events.includes(event.type),
      );
      for (const webhook of endpoints) {
        const id = newId("dlv", event.created * 1000);
        this.deliveries.set(id, {
          id,
          event_id: event.id,
          webhook_id: webhook.id,
          state: "pending",
          attempts: 0,
          next_attempt_at: event.created * 1000,
          created_at: event.created * 1000,
        });
      }
    }
  }
}
