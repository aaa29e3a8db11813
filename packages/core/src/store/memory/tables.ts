import type { NetworkId } from "../../contract/networks.ts";
import type { AccountHealth } from "../../contract/resources.ts";
import { newId } from "../../ids.ts";
import type {
  AccountRecord,
  ApiKeyRecord,
  AttemptRecord,
  DeliveryRecord,
  Effects,
  IdempotencyRecord,
  KeyMode,
  MediaRecord,
  NewEvent,
  OAuthStateRecord,
  PostRecord,
  TargetRecord,
  UserRecord,
  WebhookRecord,
} from "../types.ts";

export const copy = <T>(value: T): T => structuredClone(value);

export const accountKey = (userId: string, mode: KeyMode, platform: NetworkId) =>
  `${userId}|${mode}|${platform}`;
/** Code-unit order, as SQLite compares text and as paging by (user_id, platform) needs. */
export const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A target an attempt may start on now: pending, not in flight, and no later attempt time set. */
export function isDue(target: TargetRecord, now: number): boolean {
  return (
    target.status === "pending" &&
    !target.in_flight &&
    (target.next_attempt_at === null || target.next_attempt_at <= now)
  );
}

export function startAttempt(target: TargetRecord, now: number): void {
  target.in_flight = true;
  target.attempts += 1;
  target.attempted_at = now;
  target.next_attempt_at = null;
}

/** Overrides as every store keeps them: absent when there are none, never an empty object. */
export function setCaptions(post: PostRecord, captions: PostRecord["captions"]): void {
  if (captions && Object.keys(captions).length > 0) post.captions = copy(captions);
  else delete post.captions;
}

/**
 * A rich post's content as every store keeps it: absent when it names nothing (no empty object), and
 * without keys whose value is undefined, as a JSON column would hand it back.
 */
export function setRich(post: PostRecord, rich: PostRecord["rich"]): void {
  const kept = Object.fromEntries(Object.entries(rich ?? {}).filter(([, value]) => value !== undefined));
  if (Object.keys(kept).length > 0) post.rich = copy(kept) as PostRecord["rich"];
  else delete post.rich;
}

/** The health a live account's ending grant calls for at `now` when it differs (settleEndingGrants). */
export function endingGrantHealth(a: AccountRecord, now: number, aheadMs: number): AccountHealth | null {
  if (a.mode !== "live" || a.grant_ends_at === undefined) return null;
  if (a.health !== "reauth_required" && a.grant_ends_at <= now) return "reauth_required";
  if (a.health === "healthy" && a.grant_ends_at <= now + aheadMs) return "expiring";
  return null;
}

/**
 * The memory store's tables: every record it keeps, and the effects every change writes with it. Each
 * area of the store (accounts.ts, posts.ts, …) is functions of these tables.
 */
export class MemoryTables {
  readonly users = new Map<string, UserRecord>();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly apiCalls = new Map<string, number>();
  readonly accounts = new Map<string, AccountRecord>();
  readonly oauthStates = new Map<string, OAuthStateRecord>();
  readonly posts = new Map<string, PostRecord>();
  readonly targets = new Map<string, TargetRecord[]>();
  /** Creation times of every post ever created per user, deleted ones included (monthly allowance). */
  readonly postCreations = new Map<string, number[]>();
  readonly webhooks = new Map<string, WebhookRecord>();
  readonly events: NewEvent[] = [];
  readonly eventsById = new Map<string, NewEvent>();
  readonly deliveries = new Map<string, DeliveryRecord>();
  attempts: AttemptRecord[] = [];
  readonly media = new Map<string, MediaRecord>();
  readonly idempotency = new Map<string, IdempotencyRecord>();
  /** The last day settled for analytics.daily, by user. */
  readonly analyticsDays = new Map<string, string>();
  closed = false;
  /**
   * One version for every user's posts: any write to a post or its targets moves it, in the same
   * synchronous step as the change (AuthorizedCall.postsVersion). Per user would keep more pages
   * cached; one counter is simpler and exact.
   */
  postsVersion = 0;

  postsChanged(): void {
    this.postsVersion++;
  }

  /** Every thousandth key stored, expired records are dropped: the map stays bounded by the live ones. */
  forgetExpiredKeys(now: number): void {
    if (this.idempotency.size % 1000 !== 0) return;
    for (const [id, r] of this.idempotency) if (r.expires_at <= now) this.idempotency.delete(id);
  }

  /** The outbox (events, and one delivery per endpoint that should receive each) and a keyed answer. */
  writeEffects(effects: Effects | undefined): void {
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
