import { Command } from "commander";
import { SERVER_VERSION } from "../version.ts";
import { accountsCommand } from "./commands/accounts.ts";
import { keysCommand } from "./commands/keys.ts";
import { secretsCommand } from "./commands/secrets.ts";
import { startCommand } from "./commands/start.ts";
import { usersCommand } from "./commands/users.ts";
import { oneLine } from "./one-line.ts";

/** Commander puts a suggestion ("Did you mean --port?") on a line of its own; keep every error on one. */
function oneLineErrors(command: Command): void {
  command.configureOutput({
    outputError: (text, write) => write(`${oneLine(text)}\n`),
  });
  for (const sub of command.commands) oneLineErrors(sub);
}

/** The `socialpub-server` command line. */
export function buildProgram(): Command {
  const program = new Command("socialpub-server")
    .description("The socialpub reference service: SQLite store, exact scheduler, signed webhooks.")
    .version(SERVER_VERSION)
    .showSuggestionAfterError()
    .addCommand(startCommand())
    .addCommand(usersCommand())
    .addCommand(keysCommand())
    .addCommand(accountsCommand())
    .addCommand(secretsCommand());
  oneLineErrors(program);
  return program;
}
