import { ACCOUNT_HEALTH, type AccountHealth, type NetworkId } from "@socialpub/core";
import { Command, Option } from "commander";
import { connectAccount, disconnectAccount } from "../admin/accounts.ts";
import { findUser } from "../admin/users.ts";
import { withStore } from "../open-store.ts";
import { dbOption, nonEmpty, parseNetwork, parseNonNegativeInteger, userOption } from "../options.ts";

interface ConnectOptions {
  db: string;
  user: string;
  platform: NetworkId;
  handle: string;
  followers: number;
  health: AccountHealth;
}

const platformOption = () =>
  new Option("--platform <network>", "network id (x, linkedin, bluesky, …)")
    .argParser(parseNetwork)
    .makeOptionMandatory();

export function accountsCommand(): Command {
  const accounts = new Command("accounts").description("connect and disconnect a user's sandbox accounts");
  accounts
    .command("connect")
    .description(
      "connect (or update) a sandbox account; the user's webhooks get account.connected (account.disconnected with --health reauth_required)",
    )
    .addOption(userOption())
    .addOption(platformOption())
    .requiredOption("--handle <handle>", "the account's handle on the network", nonEmpty)
    .addOption(
      new Option("--followers <n>", "follower count the account reports")
        .argParser(parseNonNegativeInteger)
        .default(0),
    )
    .addOption(new Option("--health <health>", "account health").choices(ACCOUNT_HEALTH).default("healthy"))
    .addOption(dbOption())
    .action((options: ConnectOptions) =>
      withStore(options.db, async (store) => {
        const user = await findUser(store, options.user);
        const { platform, handle, followers, health } = options;
        await connectAccount(store, user, { platform, handle, followers, health });
        process.stdout.write(`Connected ${platform} account ${handle} for ${user.email}.\n`);
      }),
    );
  accounts
    .command("disconnect")
    .description("disconnect an account; the user's webhooks get account.disconnected")
    .addOption(userOption())
    .addOption(platformOption())
    .addOption(dbOption())
    .action((options: { db: string; user: string; platform: NetworkId }) =>
      withStore(options.db, async (store) => {
        const user = await findUser(store, options.user);
        await disconnectAccount(store, user, options.platform);
        process.stdout.write(`Disconnected ${options.platform} for ${user.email}.\n`);
      }),
    );
  accounts
    .command("list")
    .description("list a user's connected accounts")
    .addOption(userOption())
    .addOption(dbOption())
    .action((options: { db: string; user: string }) =>
      withStore(options.db, async (store) => {
        const user = await findUser(store, options.user);
        for (const a of await store.listAccounts(user.id, "test")) {
          process.stdout.write(`${a.platform}  ${a.handle}  ${a.followers} followers  ${a.health}\n`);
        }
      }),
    );
  return accounts;
}
