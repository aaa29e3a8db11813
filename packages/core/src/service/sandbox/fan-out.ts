import { NETWORK_RULES } from "../../contract/networks.ts";
import { newId } from "../../ids.ts";
import type { NewEvent, PostRecord, Store, TargetRecord } from "../../store/types.ts";
import { sandboxPermalink } from "./permalinks.ts";

export interface FanOutResult {
  targets: TargetRecord[];
  events: NewEvent[];
  published: boolean;
}

/**
 * Publishes a post to the sandbox networks: each connected, healthy account gets the post (with a
 * deterministic permalink); an account that needs reconnecting, or was disconnected since the post was
 * created, fails that network. Nothing is written here: the caller stores the result and its events in
 * one step, so a post deleted meanwhile neither publishes nor announces that it did.
 */
export async function fanOut(
  store: Store,
  post: PostRecord,
  targets: TargetRecord[],
  now: number,
): Promise<FanOutResult> {
  const created = Math.floor(now / 1000);
  const out: TargetRecord[] = [];
  const events: NewEvent[] = [];
  for (const target of targets) {
    const account = await store.getAccount(post.user_id, target.platform);
    const name = NETWORK_RULES[target.platform].name;
    if (!account || account.health === "reauth_required") {
      const error = !account
        ? `The ${name} account is no longer connected; connect it again, then publish the post again.`
        : `The ${name} account ${account.handle} needs to be reconnected (health: reauth_required); reconnect it, then publish the post again.`;
      const failed: TargetRecord = {
        ...target,
        status: "failed",
        error,
        permalink: null,
        published_at: null,
      };
      out.push(failed);
      events.push({
        id: newId("evt", now),
        user_id: post.user_id,
        type: "post.failed",
        created,
        data: { post_id: post.id, platform: target.platform, status: "failed", error },
      });
      continue;
    }
    const permalink = await sandboxPermalink(post.id, target.platform, account.handle);
    const published: TargetRecord = {
      ...target,
      status: "published",
      error: null,
      permalink,
      published_at: now,
    };
    out.push(published);
    events.push({
      id: newId("evt", now),
      user_id: post.user_id,
      type: "post.published",
      created,
      data: {
        post_id: post.id,
        platform: target.platform,
        status: "published",
        permalink,
        metrics: { reach: published.reach, likes: published.likes },
      },
    });
  }
  return { targets: out, events, published: out.some((t) => t.status === "published") };
}
