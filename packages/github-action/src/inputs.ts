import { isNetworkId, NETWORK_IDS, type NetworkId } from "@socialpub/core";
import {
  DIRECT_NETWORKS,
  type DirectCredentials,
  directInputsGiven,
  readDirectCredentials,
  requiredInputsText,
} from "./direct/credentials.ts";
import { InputError } from "./input-error.ts";
import { withoutTrailingSlashes } from "./linear-text.ts";
import { type MediaInput, parseMediaInput } from "./media-input.ts";
import { type NetworkTemplates, parseNetworkTemplates } from "./network-templates.ts";
import { DEFAULT_TEMPLATE, parseTemplate, TemplateError, type TemplatePart } from "./template.ts";

/** The action's inputs, checked. */
export interface ActionInputs {
  /** The service's API key; "" in direct mode. */
  apiKey: string;
  /** The service's base URL without a trailing slash, e.g. https://host/api/v1; "" in direct mode. */
  baseUrl: string;
  /**
   * Direct mode (`base-url` empty): the networks' own credentials, and no service. Undefined in service
   * mode.
   */
  direct: DirectCredentials | undefined;
  /** Networks to post to, in the order given; empty means every network connected to the account. */
  platforms: NetworkId[];
  template: TemplatePart[];
  /** Networks with a template of their own (the `templates` input); the others use `template`. */
  templates: NetworkTemplates;
  /** The `media` input's items, in order (empty when none). */
  media: MediaInput[];
  /** `long-notes`: notes longer than a threading network takes go out as a thread, or are shortened. */
  longNotes: "thread" | "shorten";
  /** `first-comment`: a template the accounts add as the first comment where the network takes one. */
  firstComment: TemplatePart[] | undefined;
  scheduleAt: string | undefined;
  skipPrerelease: boolean;
  dryRun: boolean;
  idempotencyKey: string | undefined;
  tag: string | undefined;
  githubToken: string | undefined;
}

/** Reads one input as the runner passes it; "" when it is not set. */
export type InputReader = (name: string) => string;

export function readInputs(read: InputReader): ActionInputs {
  const optional = (name: string) => read(name).trim() || undefined;
  const direct = readMode(read);
  const inputs: ActionInputs = {
    apiKey: direct ? "" : readApiKey(read),
    baseUrl: direct ? "" : parseBaseUrl(read("base-url")),
    direct,
    platforms: parsePlatforms(read("platforms")),
    template: parseTemplate(read("template").trim() || DEFAULT_TEMPLATE),
    templates: parseNetworkTemplates(read("templates")),
    media: parseMediaInput(read("media")),
    longNotes: parseLongNotes(read("long-notes")),
    firstComment: parseFirstComment(read("first-comment")),
    scheduleAt: optional("schedule-at"),
    skipPrerelease: parseBoolean("skip-prerelease", read("skip-prerelease"), true),
    dryRun: parseBoolean("dry-run", read("dry-run"), false),
    idempotencyKey: parseIdempotencyKey(read("idempotency-key")),
    tag: optional("tag"),
    githubToken: optional("github-token"),
  };
  if (direct) checkDirectOnly(inputs);
  return inputs;
}

/** What only a service can do: keep a post for later, or hold media uploaded to it. */
function checkDirectOnly(inputs: ActionInputs): void {
  if (inputs.scheduleAt !== undefined) {
    throw new InputError(
      "`schedule-at` needs a service to publish later: without `base-url` the Action posts directly and the job ends when it has. Drop `schedule-at`, or schedule the workflow itself.",
    );
  }
  const stored = inputs.media.find((item) => item.ref.startsWith("med_"));
  if (stored) {
    throw new InputError(
      `The \`media\` input "${stored.ref}" is a service's media id, and no service is used without \`base-url\`: give an http(s) URL of the image instead.`,
    );
  }
}

/**
 * Service mode when `base-url` is set, direct mode when it is empty and a network's credentials are
 * given. Both at once is refused, naming what to drop, so a workflow never posts somewhere it did not
 * mean to.
 */
function readMode(read: InputReader): DirectCredentials | undefined {
  const directGiven = directInputsGiven(read);
  const baseUrl = read("base-url").trim();
  if (baseUrl !== "" && directGiven.length > 0) {
    const names = directGiven.map((name) => `\`${name}\``).join(", ");
    throw new InputError(
      `\`base-url\` (post through a service) and ${names} (post directly to the networks) are both set. ` +
        `Drop ${names} to post through the service at \`base-url\`, or drop \`base-url\` and \`api-key\` to post directly.`,
    );
  }
  if (baseUrl !== "" || directGiven.length === 0) return undefined;
  if (read("api-key").trim() !== "") {
    throw new InputError(
      "`api-key` is set but `base-url` is empty: the key belongs to a service. Set `base-url` to the service's API address, or drop `api-key` to post directly with the networks' credentials.",
    );
  }
  return readDirectCredentials(read);
}

function readApiKey(read: InputReader): string {
  const key = read("api-key").trim();
  if (key === "") {
    throw new InputError(
      "The `api-key` input is empty. Pass the key from a repository secret, e.g. " +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JavaScript placeholder
        "`api-key: ${{ secrets.SOCIALPUB_API_KEY }}` (secrets are not available to workflows started from forks).",
    );
  }
  return key;
}

export function parseBaseUrl(value: string): string {
  const text = value.trim();
  if (text === "")
    throw new InputError(
      "The `base-url` input is empty. Set it to the service's API address, e.g. https://api.example.com/api/v1, " +
        `or leave it and \`api-key\` out and give a network's credentials (${directChoices()}) to post directly.`,
    );
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(
      `The \`base-url\` input "${text}" is not a URL. Use the service's API address, e.g. https://api.example.com/api/v1.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InputError(
      `The \`base-url\` input must start with https:// (or http:// for a local server), not ${url.protocol}//.`,
    );
  }
  return withoutTrailingSlashes(text);
}

/** Each direct network's required inputs: "`a` and `b`, `c` and `d`, or `e`". */
function directChoices(): string {
  const each = DIRECT_NETWORKS.map(requiredInputsText);
  return each.length > 1 ? `${each.slice(0, -1).join(", ")}, or ${each.at(-1)}` : (each[0] ?? "");
}

/** Names people reach for that the contract spells differently. */
const NETWORK_ALIASES: Readonly<Record<string, NetworkId>> = { twitter: "x" };

/** A comma- or newline-separated list of network ids, e.g. "x, bluesky" or one per line. */
export function parsePlatforms(value: string): NetworkId[] {
  const out: NetworkId[] = [];
  for (const raw of value.split(/[,\n]/)) {
    const id = raw.trim().toLowerCase();
    if (id === "") continue;
    if (!isNetworkId(id)) {
      const alias = NETWORK_ALIASES[id];
      const hint = alias ? ` (${raw.trim()} is "${alias}")` : "";
      throw new InputError(
        `The \`platforms\` input names an unknown network "${raw.trim()}"${hint}. Use any of: ${NETWORK_IDS.join(", ")}.`,
      );
    }
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

function parseLongNotes(value: string): "thread" | "shorten" {
  const text = value.trim().toLowerCase();
  if (text === "" || text === "shorten") return "shorten";
  if (text === "thread") return "thread";
  throw new InputError(
    `The \`long-notes\` input is "${value.trim()}"; use thread (notes too long for a network go out as a thread where it threads) or shorten (the default: cut to fit).`,
  );
}

function parseFirstComment(value: string): TemplatePart[] | undefined {
  if (value.trim() === "") return undefined;
  try {
    return parseTemplate(value.trim());
  } catch (error) {
    if (error instanceof TemplateError)
      throw new TemplateError(error.message.replace("The `template` input", "The `first-comment` input"));
    throw error;
  }
}

const TRUE = ["true", "True", "TRUE"];
const FALSE = ["false", "False", "FALSE"];

/** A boolean input as YAML 1.2 spells it (what `core.getBooleanInput` accepts), with a default. */
export function parseBoolean(name: string, value: string, fallback: boolean): boolean {
  const text = value.trim();
  if (text === "") return fallback;
  if (TRUE.includes(text)) return true;
  if (FALSE.includes(text)) return false;
  throw new InputError(`The \`${name}\` input is "${text}"; use true or false.`);
}

const PRINTABLE = /^[\x20-\x7e]{1,255}$/;

function parseIdempotencyKey(value: string): string | undefined {
  const key = value.trim();
  if (key === "") return undefined;
  if (!PRINTABLE.test(key)) {
    throw new InputError("The `idempotency-key` input must be 1 to 255 printable ASCII characters.");
  }
  return key;
}
