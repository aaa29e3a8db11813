import { Command } from "commander";
import { serverKeySource } from "../../live/secret-key.ts";
import { createKey, revokeKey } from "../admin/keys.ts";
import { findUser } from "../admin/users.ts";
import { withStore } from "../open-store.ts";
import { dbOption, secretKeyFileOption, userOption } from "../options.ts";

const iso = (ms: number) => new Date(ms).toISOString();

export function keysCommand(): Command {
  const keys = new Command("keys").description("manage API keys (the store keeps only their hashes)");
  keys
    .command("create")
    .description(
      "create a key for a user (a test key for the sandbox; --live for one that publishes for real); the key is printed once",
    )
    .addOption(userOption())
    .addOption(dbOption())
    .option(
      "--live",
      "a live key (sp_live_…): it sees the user's live accounts and publishes to the real networks",
    )
    .addOption(secretKeyFileOption())
    .action((options: { db: string; user: string; live?: boolean; secretKeyFile?: string }) =>
      withStore(options.db, async (store) => {
        const user = await findUser(store, options.user);
        const mode = options.live ? "live" : "test";
        const { record, apiKey } = await createKey(store, user.id, Date.now(), mode);
        process.stdout.write(`Created ${mode} key ${record.id} for ${user.email}. It is shown only now:\n`);
        process.stdout.write(`API key: ${apiKey}\n`);
        if (options.live) {
          // --secret-key-file takes SOCIALPUB_SECRET_KEY_FILE as its default (options.ts).
          const sources = { key: process.env.SOCIALPUB_SECRET_KEY, file: options.secretKeyFile };
          const source = serverKeySource(sources, options.db);
          if (source.kind === "none") {
            process.stderr.write(
              `warning: a live key's accounts are connected with their credentials sealed by the server's secret key, and a server on this database would have none: ${source.reason}.\n`,
            );
          }
        }
      }),
    );
  keys
    .command("list")
    .description("list a user's keys (hints only), with when each was last used (to the minute) and its name")
    .addOption(userOption())
    .addOption(dbOption())
    .action((options: { db: string; user: string }) =>
      withStore(options.db, async (store) => {
        const user = await findUser(store, options.user);
        for (const key of await store.listKeys(user.id)) {
          const state = key.revoked_at === null ? "active" : `revoked ${iso(key.revoked_at)}`;
          const used = key.last_used_at === undefined ? "never used" : `last used ${iso(key.last_used_at)}`;
          const name = key.name === undefined ? "" : `  ${JSON.stringify(key.name)}`;
          process.stdout.write(
            `${key.id}  ${key.hint}  ${key.mode}  created ${iso(key.created_at)}  ${used}  ${state}${name}\n`,
          );
        }
      }),
    );
  keys
    .command("revoke")
    .description("revoke a key: requests with it get 401 from then on")
    .argument("<key-id>", "the key's id (key_…), from keys list")
    .addOption(dbOption())
    .action((keyId: string, options: { db: string }) =>
      withStore(options.db, async (store) => {
        await revokeKey(store, keyId);
        process.stdout.write(`Revoked key ${keyId}.\n`);
      }),
    );
  return keys;
}
