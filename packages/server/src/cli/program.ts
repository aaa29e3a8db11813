import { Command } from "commander";
import packageJson from "../../package.json" with { type: "json" };
import { accountsCommand } from "./commands/accounts.ts";
import { keysCommand } from "./commands/keys.ts";
import { startCommand } from "./commands/start.ts";
import { usersCommand } from "./commands/users.ts";

/** Commander puts a suggestion ("Did you mean --port?") on a line of its own; keep every error on one. */
function oneLineErrors(command: Command): void {
  command.configureOutput({
    outputError: (text, write) => write(`${text.trimEnd().replace(/\s*\n\s*/g, " ")}\n`),
  });
  for (const sub of command.commands) oneLineErrors(sub);
}

/** The `socialpub-server` command line. */
export function buildProgram(): Command {
  const program = new Command("socialpub-server")
    .description("The socialpub reference service: SQLite store, exact scheduler, signed webhooks.")
    .version(packageJson.version)
    .showSuggestionAfterError()
    .addCommand(startCommand())
    .addCommand(usersCommand())
    .addCommand(keysCommand())
    .addCommand(accountsCommand());
  oneLineErrors(program);
  return program;
}
