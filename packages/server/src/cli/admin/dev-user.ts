import { hashApiKey, type NetworkId, provisionUser, type Store } from "@socialpub/core";

/**
 * Networks the dev user has connected. tiktok, youtube, pinterest and reddit stay unconnected so that
 * the rule "unconnected networks are dropped" can be seen with a first request.
 */
export const DEV_NETWORKS: readonly NetworkId[] = [
  "x",
  "linkedin",
  "bluesky",
  "facebook",
  "threads",
  "instagram",
  "discord",
  "telegram",
];

export const DEV_EMAIL = "dev@example.com";

export type DevSetup =
  /** The database was empty: the dev user was created with this key. */
  | { created: true; apiKey: string; userId: string }
  /**
   * The database already had users; `apiKey` is the --dev-key when it belongs to this database, and
   * `hasDevUser` says whether dev@example.com is one of them (the user to make a key for).
   */
  | { created: false; apiKey: string | null; hasDevUser: boolean };

/** `start --dev`: on an empty database, a studio-plan user with a test key and sandbox accounts. */
export async function setUpDevUser(store: Store, devKey?: string): Promise<DevSetup> {
  if ((await store.listUsers()).length > 0) {
    const key = devKey === undefined ? null : await store.findKeyByHash(await hashApiKey(devKey));
    const known = key !== null && key.revoked_at === null;
    const hasDevUser = (await store.findUserByEmail(DEV_EMAIL)) !== null;
    return { created: false, apiKey: known ? devKey! : null, hasDevUser };
  }
  const { user, apiKey } = await provisionUser(store, {
    plan: "studio",
    email: DEV_EMAIL,
    name: "Dev User",
    studio: "Dev Studio",
    accounts: DEV_NETWORKS,
    ...(devKey !== undefined && { key: devKey }),
  });
  return { created: true, apiKey, userId: user.id };
}
