import { randomUUID } from "node:crypto";
import type { SQLInputValue } from "node:sqlite";
import type {
  AccountRecord,
  ApiKeyRecord,
  AttemptLogEntry,
  AttemptRecord,
  DeliveryRecord,
  IdempotencyRecord,
  MediaRecord,
  NewEvent,
  OAuthStateRecord,
  PostRecord,
  TargetRecord,
  UserRecord,
  WebhookRecord,
} from "@socialpub/core";

/*
 * Rows as SQLite returns them, and their mapping to the core records. Each mapper builds a fresh plain
 * object (node:sqlite rows have a null prototype) and parses the JSON columns.
 */

type Row = Record<string, unknown>;

const text = (row: Row, key: string): string => row[key] as string;
const int = (row: Row, key: string): number => row[key] as number;
const nullableText = (row: Row, key: string): string | null => (row[key] as string | null) ?? null;
const nullableInt = (row: Row, key: string): number | null => (row[key] as number | null) ?? null;

/** A user from a row with named columns (PostgreSQL's rows). */
export function toUser(row: Row): UserRecord {
  return {
    id: text(row, "id"),
    email: text(row, "email"),
    name: text(row, "name"),
    studio: text(row, "studio"),
    plan: text(row, "plan") as UserRecord["plan"],
    created_at: int(row, "created_at"),
  };
}

/** An API key from a row with named columns (PostgreSQL's rows). */
export function toKey(row: Row): ApiKeyRecord {
  return {
    id: text(row, "id"),
    user_id: text(row, "user_id"),
    hash: text(row, "hash"),
    mode: text(row, "mode") as ApiKeyRecord["mode"],
    hint: text(row, "hint"),
    created_at: int(row, "created_at"),
    revoked_at: nullableInt(row, "revoked_at"),
    ...(row.name == null ? {} : { name: text(row, "name") }),
    ...(row.last_used_at == null ? {} : { last_used_at: Number(row.last_used_at) }),
  };
}

/** An account from a row with named columns (PostgreSQL's rows). */
export function toAccount(row: Row): AccountRecord {
  return {
    user_id: text(row, "user_id"),
    mode: text(row, "mode") as AccountRecord["mode"],
    platform: text(row, "platform") as AccountRecord["platform"],
    handle: text(row, "handle"),
    followers: int(row, "followers"),
    health: text(row, "health") as AccountRecord["health"],
    connected_at: int(row, "connected_at"),
    credentials: nullableText(row, "credentials"),
    ...(row.grant_ends_at == null ? {} : { grant_ends_at: Number(row.grant_ends_at) }),
  };
}

/** The accounts columns `accountFromColumns` reads, in its order. */
export const ACCOUNT_COLUMNS =
  "user_id, mode, platform, handle, followers, health, connected_at, credentials, grant_ends_at";

/** An account from a row read as an array of ACCOUNT_COLUMNS (cheaper for node:sqlite to build than an object). */
export function accountFromColumns(row: readonly unknown[]): AccountRecord {
  const grantEndsAt = row[8] as number | null;
  return {
    user_id: row[0] as string,
    mode: row[1] as AccountRecord["mode"],
    platform: row[2] as AccountRecord["platform"],
    handle: row[3] as string,
    followers: row[4] as number,
    health: row[5] as AccountRecord["health"],
    connected_at: row[6] as number,
    credentials: (row[7] as string | null) ?? null,
    ...(grantEndsAt == null ? {} : { grant_ends_at: Number(grantEndsAt) }),
  };
}

export function toOAuthState(row: Row): OAuthStateRecord {
  return {
    state_hash: text(row, "state_hash"),
    user_id: text(row, "user_id"),
    platform: text(row, "platform") as OAuthStateRecord["platform"],
    secret: text(row, "secret"),
    created_at: int(row, "created_at"),
    expires_at: int(row, "expires_at"),
  };
}

export function toPost(row: Row): PostRecord {
  return {
    id: text(row, "id"),
    user_id: text(row, "user_id"),
    mode: text(row, "mode") as PostRecord["mode"],
    caption: text(row, "caption"),
    platforms: JSON.parse(text(row, "platforms")) as PostRecord["platforms"],
    status: text(row, "status") as PostRecord["status"],
    media: nullableText(row, "media"),
    scheduled_at: nullableInt(row, "scheduled_at"),
    published_at: nullableInt(row, "published_at"),
    created_at: int(row, "created_at"),
    ...captionsOf(row),
    ...richOf(nullableText(row, "rich")),
  };
}

/** The api_keys columns `keyFromColumns` reads, in its order. */
export const KEY_COLUMNS = "id, user_id, hash, mode, hint, created_at, revoked_at, name, last_used_at";

/** The users columns `userFromColumns` reads, in its order. */
export const USER_COLUMNS = "id, email, name, studio, plan, created_at";

/** An API key from a row read as an array, KEY_COLUMNS from index `at` (cheaper to build than an object). */
export function keyFromColumns(row: readonly unknown[], at = 0): ApiKeyRecord {
  return {
    id: row[at] as string,
    user_id: row[at + 1] as string,
    hash: row[at + 2] as string,
    mode: row[at + 3] as ApiKeyRecord["mode"],
    hint: row[at + 4] as string,
    created_at: row[at + 5] as number,
    revoked_at: (row[at + 6] as number | null) ?? null,
    ...(row[at + 7] == null ? {} : { name: row[at + 7] as string }),
    ...(row[at + 8] == null ? {} : { last_used_at: row[at + 8] as number }),
  };
}

/** A user from a row read as an array, USER_COLUMNS from index `at`. */
export function userFromColumns(row: readonly unknown[], at = 0): UserRecord {
  return {
    id: row[at] as string,
    email: row[at + 1] as string,
    name: row[at + 2] as string,
    studio: row[at + 3] as string,
    plan: row[at + 4] as UserRecord["plan"],
    created_at: row[at + 5] as number,
  };
}

const qualified = (alias: string, columns: string) =>
  columns
    .split(", ")
    .map((column) => `${alias}.${column}`)
    .join(", ");

/**
 * What an authenticated request reads in one statement when this process does not know its key
 * (known-keys.ts): the key with its hash, its user, and the version of the user's posts
 * (`keyAndUserFromColumns` reads the row).
 */
export const KEY_AND_USER_BY_HASH = `SELECT ${qualified("k", KEY_COLUMNS)}, ${qualified("u", USER_COLUMNS)}, u.posts_version
  FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.hash = ?`;

const USER_AT = KEY_COLUMNS.split(", ").length;
const POSTS_VERSION_AT = USER_AT + USER_COLUMNS.split(", ").length;

/** An API key, its user and the user's posts version, from a row read by KEY_AND_USER_BY_HASH. */
export function keyAndUserFromColumns(row: readonly unknown[]): {
  key: ApiKeyRecord;
  user: UserRecord;
  postsVersion: number;
} {
  return {
    key: keyFromColumns(row),
    user: userFromColumns(row, USER_AT),
    postsVersion: row[POSTS_VERSION_AT] as number,
  };
}

/** The posts columns `postFromColumns` reads, in its order. */
export const POST_COLUMNS =
  "id, user_id, mode, caption, platforms, status, media, scheduled_at, published_at, created_at, captions, rich";

/** A post from a row read as an array of POST_COLUMNS (what a page of posts reads: cheaper to build). */
export function postFromColumns(row: readonly unknown[]): PostRecord {
  return {
    id: row[0] as string,
    user_id: row[1] as string,
    mode: row[2] as PostRecord["mode"],
    caption: row[3] as string,
    platforms: JSON.parse(row[4] as string) as PostRecord["platforms"],
    status: row[5] as PostRecord["status"],
    media: (row[6] as string | null) ?? null,
    scheduled_at: (row[7] as number | null) ?? null,
    published_at: (row[8] as number | null) ?? null,
    created_at: row[9] as number,
    ...(row[10] == null ? {} : { captions: JSON.parse(row[10] as string) as PostRecord["captions"] }),
    ...richOf((row[11] as string | null) ?? null),
  };
}

/** A post's overrides: present only when it has some, as every store hands them back. */
function captionsOf(row: Row): Pick<PostRecord, "captions"> {
  const json = nullableText(row, "captions");
  return json === null ? {} : { captions: JSON.parse(json) as PostRecord["captions"] };
}

/** What the captions column holds: the overrides as JSON, or null when there are none. */
export function captionsColumn(captions: PostRecord["captions"]): string | null {
  return captions && Object.keys(captions).length > 0 ? JSON.stringify(captions) : null;
}

/** A rich post's content: present only when the post has some, as every store hands it back. */
function richOf(json: string | null): Pick<PostRecord, "rich"> {
  return json === null ? {} : { rich: JSON.parse(json) as PostRecord["rich"] };
}

/**
 * What the rich column holds: a rich post's content as JSON (keys whose value is undefined left out),
 * or null when it names nothing.
 */
export function richColumn(rich: PostRecord["rich"]): string | null {
  const json = rich === undefined ? "{}" : JSON.stringify(rich);
  return json === "{}" ? null : json;
}

/**
 * What one of a target's rich columns holds (parts, first_comment, notes): the field as JSON, or null
 * when the target has no such field (one written before rich posts). A first comment of null is the
 * JSON `null`, so it comes back null rather than absent.
 */
export function targetJsonColumn(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** A target's rich fields from their columns: each present only when its column is not null. */
function targetRichOf(
  parts: string | null,
  firstComment: string | null,
  notes: string | null,
): Pick<TargetRecord, "parts" | "first_comment" | "notes"> {
  return {
    ...(parts === null ? {} : { parts: JSON.parse(parts) as TargetRecord["parts"] }),
    ...(firstComment === null
      ? {}
      : { first_comment: JSON.parse(firstComment) as TargetRecord["first_comment"] }),
    ...(notes === null ? {} : { notes: JSON.parse(notes) as TargetRecord["notes"] }),
  };
}

export function toTarget(row: Row): TargetRecord {
  return {
    post_id: text(row, "post_id"),
    platform: text(row, "platform") as TargetRecord["platform"],
    status: text(row, "status") as TargetRecord["status"],
    text: text(row, "text"),
    permalink: nullableText(row, "permalink"),
    error: nullableText(row, "error"),
    published_at: nullableInt(row, "published_at"),
    reach: int(row, "reach"),
    likes: int(row, "likes"),
    comments: int(row, "comments"),
    shares: int(row, "shares"),
    attempts: int(row, "attempts"),
    attempted_at: nullableInt(row, "attempted_at"),
    in_flight: int(row, "in_flight") === 1,
    outcome_unknown: int(row, "outcome_unknown") === 1,
    next_attempt_at: nullableInt(row, "next_attempt_at"),
    remote_id: nullableText(row, "remote_id"),
    publish_step: nullableText(row, "publish_step"),
    metrics_due_at: nullableInt(row, "metrics_due_at"),
    metrics_reads: int(row, "metrics_reads"),
    ...targetRichOf(
      nullableText(row, "parts"),
      nullableText(row, "first_comment"),
      nullableText(row, "notes"),
    ),
  };
}

/** The targets columns `targetFromColumns` reads, in its order. */
export const TARGET_COLUMNS =
  "post_id, platform, status, text, permalink, error, published_at, reach, likes, comments, shares, attempts, attempted_at, in_flight, outcome_unknown, next_attempt_at, remote_id, publish_step, metrics_due_at, metrics_reads, parts, first_comment, notes";

/** A target from a row read as an array of TARGET_COLUMNS (what publishing reads: cheaper to build). */
export function targetFromColumns(row: readonly unknown[]): TargetRecord {
  return {
    post_id: row[0] as string,
    platform: row[1] as TargetRecord["platform"],
    status: row[2] as TargetRecord["status"],
    text: row[3] as string,
    permalink: (row[4] as string | null) ?? null,
    error: (row[5] as string | null) ?? null,
    published_at: (row[6] as number | null) ?? null,
    reach: row[7] as number,
    likes: row[8] as number,
    comments: row[9] as number,
    shares: row[10] as number,
    attempts: row[11] as number,
    attempted_at: (row[12] as number | null) ?? null,
    in_flight: row[13] === 1,
    outcome_unknown: row[14] === 1,
    next_attempt_at: (row[15] as number | null) ?? null,
    remote_id: (row[16] as string | null) ?? null,
    publish_step: (row[17] as string | null) ?? null,
    metrics_due_at: (row[18] as number | null) ?? null,
    metrics_reads: row[19] as number,
    ...targetRichOf(
      (row[20] as string | null) ?? null,
      (row[21] as string | null) ?? null,
      (row[22] as string | null) ?? null,
    ),
  };
}

export function toWebhook(row: Row): WebhookRecord {
  return {
    id: text(row, "id"),
    user_id: text(row, "user_id"),
    url: text(row, "url"),
    events: JSON.parse(text(row, "events")) as WebhookRecord["events"],
    secret: text(row, "secret"),
    status: text(row, "status") as WebhookRecord["status"],
    created_at: int(row, "created_at"),
  };
}

export function toEvent(row: Row): NewEvent {
  const event: NewEvent = {
    id: text(row, "id"),
    user_id: text(row, "user_id"),
    type: text(row, "type") as NewEvent["type"],
    created: int(row, "created"),
    data: JSON.parse(text(row, "data")),
  };
  const webhookId = nullableText(row, "webhook_id");
  if (webhookId !== null) event.webhook_id = webhookId;
  return event;
}

export function toDelivery(row: Row): DeliveryRecord {
  return {
    id: text(row, "id"),
    event_id: text(row, "event_id"),
    webhook_id: text(row, "webhook_id"),
    state: text(row, "state") as DeliveryRecord["state"],
    attempts: int(row, "attempts"),
    next_attempt_at: nullableInt(row, "next_attempt_at"),
    created_at: int(row, "created_at"),
  };
}

export function toAttempt(row: Row): AttemptRecord {
  return {
    id: text(row, "id"),
    delivery_id: text(row, "delivery_id"),
    webhook_id: text(row, "webhook_id"),
    event_id: text(row, "event_id"),
    attempt: int(row, "attempt"),
    at: int(row, "at"),
    response_status: nullableInt(row, "response_status"),
    duration_ms: int(row, "duration_ms"),
    error: nullableText(row, "error"),
    next_attempt_at: nullableInt(row, "next_attempt_at"),
  };
}

export function toAttemptLogEntry(row: Row): AttemptLogEntry {
  return { ...toAttempt(row), event_type: text(row, "event_type") as AttemptLogEntry["event_type"] };
}

export function toMedia(row: Row): MediaRecord {
  return {
    id: text(row, "id"),
    user_id: text(row, "user_id"),
    url: text(row, "url"),
    type: text(row, "type"),
    size: int(row, "size"),
    status: text(row, "status") as MediaRecord["status"],
    path: nullableText(row, "path"),
    created_at: int(row, "created_at"),
  };
}

export function toIdempotency(row: Row): IdempotencyRecord {
  return {
    user_id: text(row, "user_id"),
    key: text(row, "key"),
    fingerprint: text(row, "fingerprint"),
    status: nullableInt(row, "status"),
    body: nullableText(row, "body"),
    created_at: int(row, "created_at"),
    expires_at: int(row, "expires_at"),
  };
}

/** The fields of a patch that are set: undefined ones (`{url: undefined}`) leave the record as it is. */
export function definedFields<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** A new delivery's id. */
export function newDeliveryId(): string {
  return `dlv_${randomUUID().replaceAll("-", "")}`;
}

/**
 * A target's columns after its key (status … publish_step, then parts, first_comment, notes), in the
 * order both the insert of a post's targets and the update of finished ones list them.
 */
export function targetValues(t: TargetRecord): SQLInputValue[] {
  return [
    t.status,
    t.text,
    t.permalink,
    t.error,
    t.published_at,
    t.reach,
    t.likes,
    t.comments,
    t.shares,
    t.attempts,
    t.attempted_at,
    t.in_flight ? 1 : 0,
    t.outcome_unknown ? 1 : 0,
    t.next_attempt_at,
    t.remote_id,
    t.metrics_due_at,
    t.metrics_reads,
    t.publish_step,
    targetJsonColumn(t.parts),
    targetJsonColumn(t.first_comment),
    targetJsonColumn(t.notes),
  ];
}
