import type { NetworkId } from "./contract/networks.ts";
import { PLANS, type PlanName } from "./contract/plans.ts";
import type { AccountHealth } from "./contract/resources.ts";
import { newId } from "./ids.ts";
import { generateApiKey, hashApiKey, isWellFormedKey, keyHint, keyMode } from "./keys.ts";
import type { AccountRecord, Store, UserRecord } from "./store/types.ts";

/** A sandbox account to connect: a network id alone, or with the details to use. */
export type AccountSpec =
  | NetworkId
  | { platform: NetworkId; handle?: string; followers?: number; health?: AccountHealth };

export interface ProvisionOptions {
  plan?: PlanName;
  email?: string;
  name?: string;
  studio?: string;
  /** Sandbox accounts to connect; none by default. */
  accounts?: readonly AccountSpec[];
  /** Use this key instead of generating one (it must be well formed: sp_test_ + 32+ base62). */
  key?: string;
  /** Creation time of the records; defaults to the system clock. */
  now?: number;
}

export interface ProvisionedUser {
  user: UserRecord;
  /** The key in clear: the only time it is available. */
  apiKey: string;
  accounts: AccountRecord[];
}

/**
 * Creates a user with one API key and the sandbox accounts asked for. The server's `--dev` mode, the
 * examples and every test use it, so they all meet the same kind of user a dashboard would create.
 */
export async function provisionUser(store: Store, options: ProvisionOptions = {}): Promise<ProvisionedUser> {
  const now = options.now ?? Date.now();
  const plan = options.plan ?? "free";
  const specs = (options.accounts ?? []).map((a) => (typeof a === "string" ? { platform: a } : a));
  if (new Set(specs.map((s) => s.platform)).size !== specs.length) {
    throw new Error("provisionUser: each network can be connected once.");
  }
  if (specs.length > PLANS[plan].profiles) {
    throw new Error(
      `provisionUser: the ${plan} plan allows ${PLANS[plan].profiles} connected profiles, not ${specs.length}.`,
    );
  }
  const apiKey = options.key ?? generateApiKey("test");
  if (!isWellFormedKey(apiKey)) {
    throw new Error(
      "provisionUser: key must be sp_test_ or sp_live_ followed by at least 32 base62 characters.",
    );
  }

  const id = newId("usr", now);
  const user: UserRecord = {
    id,
    email: options.email ?? `${id.toLowerCase()}@example.com`,
    name: options.name ?? "Sandbox User",
    studio: options.studio ?? "Sandbox Studio",
    plan,
    created_at: now,
  };
  await store.createUser(user);
  await store.createKey({
    id: newId("key", now),
    user_id: id,
    hash: await hashApiKey(apiKey),
    mode: keyMode(apiKey),
    hint: keyHint(apiKey),
    created_at: now,
    revoked_at: null,
  });

  const accounts: AccountRecord[] = specs.map((spec) => ({
    user_id: id,
    mode: "test",
    platform: spec.platform,
    handle: spec.handle ?? defaultHandle(spec.platform, user.studio),
    followers: spec.followers ?? 0,
    health: spec.health ?? "healthy",
    connected_at: now,
    credentials: null,
  }));
  for (const account of accounts) await store.putAccount(account);
  return { user, apiKey, accounts };
}

function handleSlug(studio: string): string {
  const slug = studio
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 30);
  return slug || "sandbox";
}

/**
 * The handle a sandbox account gets when none is given: the studio name as a slug, shaped like the
 * network's own handles (Bluesky handles are domain names).
 */
export function defaultHandle(platform: NetworkId, studio: string): string {
  const slug = handleSlug(studio);
  return platform === "bluesky" ? `${slug.replace(/_/g, "-")}.bsky.social` : slug;
}
