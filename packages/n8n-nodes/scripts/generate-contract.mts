// Writes nodes/shared/contract.generated.ts from @socialpub/core, so the nodes offer exactly the
// networks, statuses and event types the contract defines, and the Account → Connect fields
// (connect-fields.generated.ts) from the networks' descriptions in @socialpub/networks, and each
// network's post options (network-options.generated.ts) from the contract's option schemas. The nodes
// cannot import either at run time (a verified community package has no runtime dependencies), hence
// generated copies; the test test/contract-generated.test.mts regenerates them in memory and fails
// when they drift.
//
//   node scripts/generate-contract.mts          write the file
//   node scripts/generate-contract.mts --check  exit 1 when the file is out of date
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  EVENT_TYPES,
  MAX_ALT_LENGTH,
  MAX_FIRST_COMMENT_LENGTH,
  MAX_MEDIA_ITEMS,
  MAX_THREAD_PARTS,
  NETWORK_IDS,
  NETWORK_OPTION_SCHEMAS,
  NETWORK_RULES,
  POST_STATUSES,
} from "@socialpub/core";
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

export const NETWORK_OPTIONS_PATH = join(
  dirname(dirname(fileURLToPath(import.meta.url))),
  "nodes",
  "SocialPublish",
  "resources",
  "post",
  "network-options.generated.ts",
);

/** The generated files and their text: what `--check` and the drift test compare. */
export function renderAll(): Array<[path: string, text: string]> {
  return [
    [GENERATED_PATH, renderContract()],
    [CONNECT_FIELDS_PATH, renderConnectFields()],
    [NETWORK_OPTIONS_PATH, renderNetworkOptions()],
  ];
}

function constArray(name: string, values: readonly string[], doc: string): string {
  const body = values.map((value) => `  ${JSON.stringify(value)},`).join("\n");
  return `/** ${doc} */\nexport const ${name} = [\n${body}\n] as const;`;
}

/** The file's whole text, derived from the contract. */
export function renderContract(): string {
  const networks = NETWORK_IDS.map((id) => {
    const { name, needsMedia, needsVideo, carries } = NETWORK_RULES[id];
    return `  { id: ${JSON.stringify(id)}, name: ${JSON.stringify(name)}, needsMedia: ${needsMedia}, needsVideo: ${needsVideo}, threads: ${JSON.stringify(carries.threads)}, firstComment: ${carries.firstComment}, poll: ${carries.poll !== null} },`;
  }).join("\n");
  const sections = [
    "// Generated from @socialpub/core by scripts/generate-contract.mts. Do not edit by hand:\n" +
      "// run `pnpm --filter n8n-nodes-socialpub generate` after changing the contract.",
    constArray("NETWORK_IDS", NETWORK_IDS, "The network ids, in the contract's order."),
    "export type NetworkId = (typeof NETWORK_IDS)[number];",
    "/**\n" +
      " * Display name of each network, whether it refuses a post without media, whether its media must be a\n" +
      " * video, how a thread's parts go out there, and whether it takes a first comment and a poll.\n" +
      " */\n" +
      "export const NETWORKS: ReadonlyArray<{\n" +
      "  id: NetworkId;\n  name: string;\n  needsMedia: boolean;\n  needsVideo: boolean;\n" +
      '  threads: "replies" | "messages" | "joined";\n  firstComment: boolean;\n  poll: boolean;\n' +
      `}> = [\n${networks}\n];`,
    "/** The bounds of a rich post's fields (a media list, its alt texts, a thread, a first comment). */\n" +
      `export const RICH_LIMITS = { maxMediaItems: ${MAX_MEDIA_ITEMS}, maxAltLength: ${MAX_ALT_LENGTH}, maxThreadParts: ${MAX_THREAD_PARTS}, maxFirstCommentLength: ${MAX_FIRST_COMMENT_LENGTH} } as const;`,
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

/**
 * What each network option is for, in words: the contract's option schemas say only their names and
 * bounds. A new option in the contract stops `generate` (and fails the drift test) until it has one.
 */
const OPTION_HELP: Record<string, string> = {
  "youtube.title": "Title of the video",
  "youtube.privacy": "Who can watch the video",
  "youtube.tags": "Tags of the video, separated by commas",
  "youtube.category_id": "YouTube's video category, as its numeric ID (22 is People & Blogs)",
  "youtube.made_for_kids": "Whether the video is made for children, as YouTube asks every upload to say",
  "tiktok.privacy_level": "Who can see the post; TikTok takes only the levels the account allows",
  "tiktok.disable_comment": "Whether to turn comments off for the post",
  "tiktok.disable_duet": "Whether to turn duets off for the post",
  "tiktok.disable_stitch": "Whether to turn stitches off for the post",
  "reddit.title": "Title of the Reddit post, instead of the text's first line",
  "reddit.subreddit": "Subreddit the post goes to (name or r/name), instead of the account's own",
  "reddit.flair_id": "ID of the subreddit's post flair to set",
  "reddit.nsfw": "Whether to mark the post NSFW",
  "reddit.spoiler": "Whether to mark the post as a spoiler",
  "pinterest.board_id": "ID of the board the pin goes to, instead of the account's board",
  "pinterest.title": "Title of the pin",
  "pinterest.link": "Address the pin links to",
  "linkedin.visibility": "Who can see the post",
  "x.reply_settings": "Who can reply to the post (everyone when left out)",
  "telegram.silent": "Whether to send the messages without a notification sound",
  "telegram.protect_content": "Whether to keep the messages from being forwarded or saved",
  "discord.username": "Name the webhook posts under, instead of its own",
  "discord.thread_name": "Name of the thread to start, for a webhook of a forum channel",
};

/** The JSON Schema of one option, as zod writes it. */
interface OptionSchema {
  type?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  items?: OptionSchema;
}

/** How the node reads an option's value into the request: as text, a yes/no, one of a list, or a list. */
export type OptionKind = "text" | "flag" | "choice" | "list";

function optionKind(schema: OptionSchema, key: string): OptionKind {
  if (schema.enum) return "choice";
  if (schema.type === "boolean") return "flag";
  if (schema.type === "string") return "text";
  if (schema.type === "array" && schema.items?.type === "string") return "list";
  throw new Error(`${key}: the node has no field for an option of this type (${JSON.stringify(schema)})`);
}

/** "made_for_kids" → "Made For Kids"; "flair_id" → "Flair ID"; "nsfw" → "NSFW". */
const optionLabel = (name: string) =>
  name
    .split("_")
    .map((word) =>
      ["id", "nsfw"].includes(word) ? word.toUpperCase() : word[0]!.toUpperCase() + word.slice(1),
    )
    .join(" ");

/** "PUBLIC_TO_EVERYONE" → "Public To Everyone"; "mentionedUsers" → "Mentioned Users". */
const choiceLabel = (value: string) =>
  value
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(/[_ ]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
    .join(" ");

/** The bounds an option's schema sets, in words, to follow its help text. */
function bounds(schema: OptionSchema): string {
  const text = (s: OptionSchema) => (s.maxLength ? `at most ${s.maxLength} characters` : "");
  if (schema.type === "string" && !schema.enum) return text(schema) ? ` (${text(schema)})` : "";
  if (schema.type === "array") {
    const each = schema.items ? text(schema.items) : "";
    return ` (at most ${schema.maxItems}${each ? `, each ${each}` : ""})`;
  }
  return "";
}

/**
 * Each network's post options as an n8n collection of its own (`<network>Options`), its fields named
 * as the contract's `options.<network>` names them, derived from NETWORK_OPTION_SCHEMAS.
 */
export function renderNetworkOptions(): string {
  const kinds: string[] = [];
  const collections: string[] = [];
  for (const [network, zodSchema] of Object.entries(NETWORK_OPTION_SCHEMAS)) {
    const { name: networkName } = NETWORK_RULES[network as keyof typeof NETWORK_RULES];
    const properties = (zodSchema.toJSONSchema() as { properties: Record<string, OptionSchema> }).properties;
    // n8n lists a collection's fields by their label: alphabetically (its lint insists).
    const sorted = Object.entries(properties).sort(([a], [b]) =>
      optionLabel(a).localeCompare(optionLabel(b)),
    );
    const fields = sorted.map(([name, schema]) => {
      const key = `${network}.${name}`;
      const help = OPTION_HELP[key];
      if (help === undefined) throw new Error(`${key} has no help text: add it to OPTION_HELP`);
      const kind = optionKind(schema, key);
      const lines = [`displayName: ${JSON.stringify(optionLabel(name))}`, `name: ${JSON.stringify(name)}`];
      if (kind === "flag") lines.push(`type: "boolean"`, "default: false");
      else if (kind === "choice") {
        const options = schema
          .enum!.map((value) => ({ name: choiceLabel(value), value }))
          .sort((a, b) => a.name.localeCompare(b.name));
        lines.push(
          `type: "options"`,
          `options: [${options.map((o) => `{ name: ${JSON.stringify(o.name)}, value: ${JSON.stringify(o.value)} }`).join(", ")}]`,
          `default: ${JSON.stringify(schema.enum![0])}`,
        );
      } else lines.push(`type: "string"`, `default: ""`);
      lines.push(`description: ${JSON.stringify(n8nText(`${help}${bounds(schema)}`))}`);
      return { name, kind, text: `      {\n${lines.map((line) => `        ${line},`).join("\n")}\n      },` };
    });
    kinds.push(`  ${network}: { ${fields.map((f) => `${f.name}: ${JSON.stringify(f.kind)}`).join(", ")} },`);
    collections.push(
      [
        "  {",
        `    displayName: ${JSON.stringify(`${networkName} Options`)},`,
        `    name: ${JSON.stringify(`${network}Options`)},`,
        `    type: "collection",`,
        `    placeholder: ${JSON.stringify(`Add ${networkName} Option`)},`,
        "    default: {},",
        `    description: ${JSON.stringify(`Settings of the post that only ${networkName} has`)},`,
        `    options: [\n${fields.map((f) => f.text).join("\n")}\n    ],`,
        "  },",
      ].join("\n"),
    );
  }
  const sections = [
    "// Generated from @socialpub/core by scripts/generate-contract.mts. Do not edit by hand:\n" +
      "// run `pnpm --filter n8n-nodes-socialpub generate` after changing the contract's network options.",
    'import type { INodeProperties } from "n8n-workflow";',
    "/** How each option is read: text, a yes/no (flag), one of a list (choice), or a comma-separated list. */\n" +
      'export const NETWORK_OPTION_KINDS: Readonly<Record<string, Readonly<Record<string, "text" | "flag" | "choice" | "list">>>> = {\n' +
      `${kinds.join("\n")}\n};`,
    "/** Each network's options as a collection named `<network>Options`, its fields named as in the contract. */\n" +
      `export const NETWORK_OPTION_PROPERTIES: INodeProperties[] = [\n${collections.join("\n")}\n];`,
  ];
  return `${sections.join("\n\n")}\n`;
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
