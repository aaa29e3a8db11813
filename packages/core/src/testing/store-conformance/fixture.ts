import type { EventType } from "../../contract/events.ts";
import type { NetworkId } from "../../contract/networks.ts";
import { newId } from "../../ids.ts";
import { sampleEvent } from "../../service/sandbox/sample-events.ts";
import { NOT_ATTEMPTED } from "../../store/settle.ts";
import type {
  NewEvent,
  NewEventBase,
  PostRecord,
  Store,
  TargetRecord,
  UserRecord,
  WebhookRecord,
} from "../../store/types.ts";

/** The time every record of the suite is made at. */
export const T0 = Date.UTC(2026, 5, 15, 12, 0, 0);

/** The store under test (a new one for each test) and records to put in it. */
export interface StoreFixture {
  readonly store: Store;
  /** A new user, stored. */
  user(): Promise<UserRecord>;
  /** A post of the user (scheduled a minute after T0 unless `fields` say otherwise), not stored. */
  post(userId: string, fields?: Partial<PostRecord>): PostRecord;
  /** A pending target of the post, not attempted yet. */
  target(postId: string, platform?: NetworkId, fields?: Partial<TargetRecord>): TargetRecord;
  /** An event of the user, shaped as the contract says for its type. */
  event(userId: string, type?: EventType, fields?: Partial<NewEventBase>): NewEvent;
  /** An enabled endpoint of the user listening to post.published. */
  webhook(userId: string, fields?: Partial<WebhookRecord>): WebhookRecord;
}

/** The fixture of a test: `current()` answers the store the test runs against. */
export function storeFixture(current: () => Store): StoreFixture {
  const store = (): Store => current();
  const user = async (): Promise<UserRecord> => {
    const id = newId("usr", T0);
    const record: UserRecord = {
      id,
      email: `${id.toLowerCase()}@example.com`,
      name: "Test",
      studio: "Test",
      plan: "creator",
      created_at: T0,
    };
    await store().createUser(record);
    return record;
  };

  const post = (userId: string, fields: Partial<PostRecord> = {}): PostRecord => ({
    id: newId("post", T0),
    user_id: userId,
    mode: "test",
    caption: "hello",
    platforms: ["x"],
    status: "scheduled",
    media: null,
    scheduled_at: T0 + 60_000,
    published_at: null,
    created_at: T0,
    ...fields,
  });

  const target = (
    postId: string,
    platform: NetworkId = "x",
    fields: Partial<TargetRecord> = {},
  ): TargetRecord => ({
    post_id: postId,
    platform,
    status: "pending",
    text: "hello",
    permalink: null,
    error: null,
    published_at: null,
    reach: 0,
    likes: 0,
    comments: 0,
    shares: 0,
    ...NOT_ATTEMPTED,
    ...fields,
  });

  const event = (
    userId: string,
    type: EventType = "post.published",
    fields: Partial<NewEventBase> = {},
  ): NewEvent =>
    sampleEvent(type, T0, {
      id: newId("evt", T0),
      user_id: userId,
      created: Math.floor(T0 / 1000),
      ...fields,
    });

  const webhook = (userId: string, fields: Partial<WebhookRecord> = {}): WebhookRecord => ({
    id: newId("wh", T0),
    user_id: userId,
    url: "https://example.com/hook",
    events: ["post.published"],
    secret: "whsec_dGVzdA==",
    status: "enabled",
    created_at: T0,
    ...fields,
  });

  return {
    get store() {
      return current();
    },
    user,
    post,
    target,
    event,
    webhook,
  };
}
