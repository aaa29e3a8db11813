import { randomBytes } from "node:crypto";
import { silentLogger } from "../../../src/logger.ts";
import type { PublishingOptions } from "../../../src/publishing/publishing.ts";
import { CredentialKeyring } from "../../../src/secrets/credential-keyring.ts";
import { createService, type Service, type ServiceOptions } from "../../../src/service/create-service.ts";
import { MemoryStore } from "../../../src/store/memory.ts";
import type { Store } from "../../../src/store/types.ts";
import { FakeClock, provisionUser } from "../../../src/testing/index.ts";
import { ApiUser } from "../../../src/testing/service/harness.ts";
import type { ScriptedAdapter } from "./scripted-adapter.ts";

export const LIVE_KEY = `sp_live_${"ScriptedLivePublishing0123456789".repeat(2)}`;

export interface LiveService {
  service: Service;
  store: Store;
  clock: FakeClock;
  /** The user, calling with a live key. */
  user: ApiUser;
  close(): Promise<void>;
}

/**
 * The service in-process on a fake clock, with live adapters the test scripts, and one user with a
 * live key who has connected an account on each of them through POST /accounts/connect.
 */
export async function liveService(
  build: (clock: FakeClock) => ScriptedAdapter[],
  options: {
    publishing?: PublishingOptions;
    store?: Store;
    /** Service options for the media tests: the address rule, how names resolve, how media is fetched. */
    service?: Pick<ServiceOptions, "allowPrivateWebhookUrls" | "lookupHost" | "mediaFetch" | "publishKey">;
  } = {},
): Promise<LiveService & { adapters: ScriptedAdapter[] }> {
  const clock = new FakeClock();
  const store = options.store ?? new MemoryStore();
  const adapters = build(clock);
  const service = createService({
    store,
    clock,
    logger: silentLogger,
    rateLimit: false,
    liveAdapters: Object.fromEntries(adapters.map((a) => [a.id, a])),
    credentialKeyring: new CredentialKeyring(randomBytes(32)),
    allowPrivateWebhookUrls: true,
    ...(options.publishing && { publishing: options.publishing }),
    ...options.service,
  });
  await service.start();
  const close = async () => {
    await service.close();
  };
  const target = { fetch: service.fetch, store, clock, close };
  const user = await connectedUser(target, LIVE_KEY, adapters);
  return { service, store, clock, user, close, adapters };
}

/** A user with live key `key` who has connected an account on each adapter's network. */
export async function connectedUser(
  target: ApiUser["target"],
  key: string,
  adapters: readonly ScriptedAdapter[],
): Promise<ApiUser> {
  const provisioned = await provisionUser(target.store, { key, plan: "studio", now: target.clock.now() });
  const user = new ApiUser(target, provisioned);
  for (const adapter of adapters) {
    const res = await user.post("/accounts/connect", {
      platform: adapter.id,
      bot_token: "token-that-is-a-secret",
      chat: "@chat",
    });
    if (res.status !== 201) throw new Error(`connect ${adapter.id} answered ${res.status}: ${res.text}`);
  }
  return user;
}

/** The targets of a post, by network. */
// biome-ignore lint/suspicious/noExplicitAny: targets are checked field by field.
export async function targetsOf(user: ApiUser, postId: string): Promise<Record<string, any>> {
  const res = await user.get(`/posts/${postId}/targets`);
  return Object.fromEntries(res.body.data.map((t: { platform: string }) => [t.platform, t]));
}
