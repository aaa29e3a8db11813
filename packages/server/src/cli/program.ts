import { Command } from "commander";
import { accountsCommand } from "./commands/accounts.ts";
import { keysCommand } from "./commands/keys.ts";
import { startCommand } from "./commands/start.ts";
import { usersCommand } from "./commands/users.ts";

/** The `socialpub-server` command line. */
export function buildProgram(): Command {
  return new Command("socialpub-server")
    .description("The socialpub reference service: SQLite store, exact scheduler, signed webhooks.")
    .showSuggestionAfterError()
    .addCommand(startCommand())
    .addCommand(usersCommand())
    .addCommand(keysCommand())
    .addCommand(accountsCommand());
}
