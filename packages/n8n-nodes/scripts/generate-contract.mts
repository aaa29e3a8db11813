// Writes nodes/shared/contract.generated.ts from @socialpub/core, so the nodes offer exactly the
// networks, statuses and event types the contract defines, and the Account → Connect fields
// (connect-fields.generated.ts) from the networks' descriptions in @socialpub/networks. The nodes
// cannot import either at run time (a verified community package has no runtime dependencies), hence
// generated copies; the test test/contract-generated.test.mts regenerates them in memory and fails
// when they drift.
//
//   node scripts/generate-contract.mts          write the file
//   node scripts/generate-contract.mts --check  exit 1 when the file is out of date
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { EVENT_TYPES, NETWORK_IDS, NETWORK_RULES, POST_STATUSES } from "@socialpub/core";
import { type ConnectField, DESCRIPTIONS } from "@socialpub/networks/descriptions";

export const GENERATED_PATH = join(
  dirname(dirname(fileURLToPath(import.meta.url))),
  "nodes",
  "shared",
  "contract.generated.ts",
);

export const CONNECT_FIELDS_PATH = join(
  dirname(dirname(fileURLToPath(import.meta.url))),
  "nodes",
  "SocialPublish",
  "resources",
  "account",
  "connect-fields.generated.ts",
);

/** The generated files and their text: what `--check` and the drift test compare. */
export function renderAll(): Array<[path: string, text: string]> {
  return [
    [GENERATED_PATH, renderContract()],
    [CONNECT_FIELDS_PATH, renderConnectFields()],
  ];
}

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

/** "App password" → "App Password": n8n's display names are in title case. */
const titleCase = (label: string) => label.replace(/\b[a-z]/g, (c) => c.toUpperCase());

/** A help text as n8n's lint wants it: "ID" for "id", no final period on a single sentence. */
function n8nText(text: string): string {
  const ids = text.replace(/\bid\b/g, "ID");
  return /[.!?] /.test(ids) ? ids : ids.replace(/\.$/, "");
}

/** "The board…" → "the board…"; "PDS" stays. */
const lowerFirst = (text: string) => text.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());

/** "A, B and C". */
const listed = (names: string[]) =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

/** The Account → Connect fields each network takes, as n8n properties shown for that network only. */
export function renderConnectFields(): string {
  const taking = DESCRIPTIONS.filter((d) => d.connect.fields.some((f) => f.name !== "handle"));
  const fieldsOf = (fields: readonly ConnectField[]) => fields.filter((f) => f.name !== "handle");
  const map = taking
    .map(
      (d) =>
        `  ${d.id}: [${fieldsOf(d.connect.fields)
          .map((f) => JSON.stringify(f.name))
          .join(", ")}],`,
    )
    .join("\n");
  const properties = taking.flatMap((d) =>
    fieldsOf(d.connect.fields).map((f) => {
      const lines = [
        `displayName: ${JSON.stringify(titleCase(f.label))}`,
        `name: ${JSON.stringify(f.name)}`,
        `type: "string"`,
        ...(f.secret ? ["typeOptions: { password: true }"] : []),
        `default: ""`,
        ...(f.placeholder ? [`placeholder: ${JSON.stringify(f.placeholder)}`] : []),
        `displayOptions: { show: { platform: [${JSON.stringify(d.id)}] } }`,
        `description: ${JSON.stringify(n8nText(`Live key: ${lowerFirst(f.help ?? f.label)}`))}`,
      ];
      return `  {\n${lines.map((line) => `    ${line},`).join("\n")}\n  },`;
    }),
  );
  const names = (kind: string) =>
    JSON.stringify(listed(DESCRIPTIONS.filter((d) => d.connect.kind === kind).map((d) => d.name)));
  const numeric = DESCRIPTIONS.flatMap((d) => d.connect.fields.filter((f) => f.numericId).map((f) => f.name));
  return (
    [
      "// Generated from @socialpub/networks by scripts/generate-contract.mts. Do not edit by hand:\n" +
        "// run `pnpm --filter n8n-nodes-socialpub generate` after changing a network's description.",
      'import type { INodeProperties } from "n8n-workflow";',
      "/** The fields each network takes at connect besides the handle, as the contract's connect body names them. */\n" +
        `export const CONNECT_FIELDS: Readonly<Record<string, readonly string[]>> = {\n${map}\n};`,
      "/** Fields that take @name or a numeric id, the id sent as a number. */\n" +
        `export const NUMERIC_ID_FIELDS: readonly string[] = ${JSON.stringify(numeric)};`,
      "/** The networks that connect with pasted credentials, by name. */\n" +
        `export const CREDENTIAL_NETWORK_NAMES = ${names("credentials")};`,
      "/** The networks that connect through their own page (OAuth), by name. */\n" +
        `export const OAUTH_NETWORK_NAMES = ${names("oauth")};`,
      "/** The connect fields as node properties, each shown for its network only. */\n" +
        `export const CONNECT_FIELD_PROPERTIES: INodeProperties[] = [\n${properties.join("\n")}\n];`,
    ].join("\n\n") + "\n"
  );
}

function main(): void {
  const files = renderAll();
  if (process.argv.includes("--check")) {
    const stale = files.filter(([path, expected]) => readFileSync(path, "utf8") !== expected);
    for (const [path] of stale) {
      console.error(`${path} is out of date: run \`pnpm --filter n8n-nodes-socialpub generate\`.`);
    }
    if (stale.length > 0) process.exit(1);
    return;
  }
  for (const [path, text] of files) {
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
}

if (import.meta.main) main();
