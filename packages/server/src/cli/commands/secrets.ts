import { sealWebhookSecrets } from "@socialpub/core";
import { Command } from "commander";
import { resealCredentials } from "../admin/reseal.ts";
import { requireKeyring } from "../admin/secret-keyring.ts";
import { CliError } from "../errors.ts";
import { withStore } from "../open-store.ts";
import { dbOption, secretKeyFileOption } from "../options.ts";

const RESEAL_HELP = `
Rotating the secret key (docs/deploy.md):
  1. make a new key: openssl rand -base64 32
  2. restart every server with SOCIALPUB_SECRET_KEY=<new> and SOCIALPUB_PREVIOUS_SECRET_KEYS=<old>
  3. run this command with the same two variables
  4. restart the servers without the old key in SOCIALPUB_PREVIOUS_SECRET_KEYS`;

export function secretsCommand(): Command {
  const secrets = new Command("secrets").description(
    "look after the secret key that seals live accounts' credentials and webhook signing secrets",
  );
  secrets
    .command("reseal")
    .description(
      "seal every live account's credentials and every webhook signing secret again under the current secret key (opening them with SOCIALPUB_PREVIOUS_SECRET_KEYS), so a previous key can be retired; safe beside running servers",
    )
    .addOption(secretKeyFileOption())
    .addOption(dbOption())
    .addHelpText("after", RESEAL_HELP)
    .action((options: { db: string; secretKeyFile?: string }) => {
      // The keys first: a missing one is said without waiting for the database.
      const keyring = requireKeyring(options.db, options.secretKeyFile, "resealing credentials");
      return withStore(options.db, async (store) => {
        const report = await resealCredentials(store, keyring);
        const hooks = await sealWebhookSecrets(store, keyring, { rotate: true });
        process.stdout.write(
          `Resealed ${report.resealed} account credentials under key ${keyring.currentKeyId}; ${report.current} already were.\n` +
            `Resealed ${hooks.sealed} webhook signing secrets; ${hooks.current} already were.\n`,
        );
        for (const f of report.failed) process.stderr.write(`cannot reseal the ${f.account}: ${f.reason}\n`);
        for (const f of hooks.failed)
          process.stderr.write(`cannot reseal the secret of webhook ${f.webhook_id}: ${f.reason}\n`);
        if (report.failed.length > 0 || hooks.failed.length > 0) {
          throw new CliError(
            `${report.failed.length} account credentials and ${hooks.failed.length} webhook secrets were not resealed; keep the previous keys until they are (or reconnect those accounts, register those endpoints again).`,
          );
        }
      });
    });
  return secrets;
}
