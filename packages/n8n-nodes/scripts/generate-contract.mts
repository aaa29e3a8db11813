// Writes nodes/shared/contract.generated.ts from @socialpub/core, so the nodes offer exactly the
// networks, statuses and event types the contract defines. The nodes cannot import core at run time
// (a verified community package has no runtime dependencies), hence a generated copy; the test
// test/contract-generated.test.mts regenerates it in memory and fails when the two drift.
//
//   node scripts/generate-contract.mts          write the file
//   node scripts/generate-contract.mts --check  exit 1 when the file is out of date
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { EVENT_TYPES, NETWORK_IDS, NETWORK_RULES, POST_STATUSES } from "@socialpub/core";

export const GENERATED_PATH = join(
  dirname(dirname(fileURLToPath(import.meta.url))),
  "nodes",
  "shared",
  "contract.generated.ts",
);

function constArray(name: string, values: readonly string[], doc: string): string {
  const body = values.map((value) => `  ${JSON.stringify(value)},`).join("\n");
  return `/** ${doc} */\nexport const ${name} = [\n${body}\n] as const;`;
}

/** The file's whole text, derived from the contract. */
export function renderContract(): string {
  const networks = NETWORK_IDS.map((id) => {
    const { name, needsMedia, needsVideo } = NETWORK_RULES[id];
    return `  { id: ${JSON.stringify(id)}, name: ${JSON.stringify(name)}, needsMedia: ${needsMedia}, needsVideo: ${needsVideo} },`;
  }).join("\n");
  const sections = [
    "// Generated from @socialpub/core by scripts/generate-contract.mts. Do not edit by hand:\n" +
      "// run `pnpm --filter n8n-nodes-socialpub generate` after changing the contract.",
    constArray("NETWORK_IDS", NETWORK_IDS, "The network ids, in the contract's order."),
    "export type NetworkId = (typeof NETWORK_IDS)[number];",
    "/** Display name of each network, whether it refuses a post without media, and whether its media must be a video. */\n" +
      "export const NETWORKS: ReadonlyArray<{ id: NetworkId; name: string; needsMedia: boolean; needsVideo: boolean }> = [\n" +
      `${networks}\n];`,
    constArray("EVENT_TYPES", EVENT_TYPES, "Webhook event types."),
    "export type EventType = (typeof EVENT_TYPES)[number];",
    constArray("POST_STATUSES", POST_STATUSES, "Post statuses."),
    "export type PostStatus = (typeof POST_STATUSES)[number];",
  ];
  return `${sections.join("\n\n")}\n`;
}

function main(): void {
  const expected = renderContract();
  if (process.argv.includes("--check")) {
    const current = readFileSync(GENERATED_PATH, "utf8");
    if (current !== expected) {
      console.error(`${GENERATED_PATH} is out of date: run \`pnpm --filter n8n-nodes-socialpub generate\`.`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(GENERATED_PATH, expected);
  console.log(`wrote ${GENERATED_PATH}`);
}

if (import.meta.main) main();
