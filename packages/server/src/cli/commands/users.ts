import type { PlanName } from "@socialpub/core";
import { Command } from "commander";
import { createUser } from "../admin/users.ts";
import { withStore } from "../open-store.ts";
import { dbOption, nonEmpty, planOption } from "../options.ts";

interface CreateOptions {
  db: string;
  email: string;
  name: string;
  studio: string;
  plan: PlanName;
}

export function usersCommand(): Command {
  const users = new Command("users").description("manage the users of this instance");
  users
    .command("create")
    .description("create a user (then give it a key with: keys create --user <email>)")
    .requiredOption("--email <email>", "e-mail address, unique in this instance")
    .requiredOption("--name <name>", "the person's name", nonEmpty)
    .requiredOption("--studio <studio>", "studio or workspace name", nonEmpty)
    .addOption(planOption().default("free").makeOptionMandatory())
    .addOption(dbOption())
    .action((options: CreateOptions) =>
      withStore(options.db, async (store) => {
        const { db: _, ...input } = options;
        const user = await createUser(store, input);
        process.stdout.write(`Created user ${user.id} <${user.email}> on the ${user.plan} plan.\n`);
      }),
    );
  users
    .command("list")
    .description("list users")
    .addOption(dbOption())
    .action((options: { db: string }) =>
      withStore(options.db, async (store) => {
        for (const user of await store.listUsers()) {
          process.stdout.write(`${user.id}  ${user.email}  ${user.plan}  ${user.name} (${user.studio})\n`);
        }
      }),
    );
  return users;
}
