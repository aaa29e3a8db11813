import {
  MEDIA_REQUIRED_NETWORKS,
  type NetworkId,
  SocialPublishClient,
  SocialPublishError,
} from "@socialpub/core";

/** The client the examples use, configured from SOCIALPUB_BASE_URL and SOCIALPUB_API_KEY. */
export function clientFromEnv(): SocialPublishClient {
  const apiKey = process.env.SOCIALPUB_API_KEY;
  if (!apiKey) {
    fail(
      "Set SOCIALPUB_API_KEY to an API key (sp_test_…): README.md says how to make one for `npm start`'s dev user.",
    );
  }
  return new SocialPublishClient({ apiKey, baseUrl: process.env.SOCIALPUB_BASE_URL });
}

/** Connected networks that can publish text alone, so an example post needs no media. */
export async function textNetworks(client: SocialPublishClient): Promise<NetworkId[]> {
  const { data: accounts } = await client.accounts.list();
  const usable = accounts
    .filter((account) => account.health !== "reauth_required")
    .map((account) => account.platform)
    .filter((platform) => !MEDIA_REQUIRED_NETWORKS.includes(platform));
  if (usable.length === 0) {
    fail("No connected network can publish text alone: connect x, bluesky or linkedin, for example.");
  }
  return usable;
}

/** Runs an example, printing a failure the way a user needs to see it: message, status, request id. */
export async function runExample(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (error instanceof SocialPublishError) {
      const where = [
        error.status && `status ${error.status}`,
        error.requestId && `request ${error.requestId}`,
      ];
      fail(
        `${error.name}: ${error.message}${where.some(Boolean) ? ` (${where.filter(Boolean).join(", ")})` : ""}`,
      );
    }
    throw error;
  }
}

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
