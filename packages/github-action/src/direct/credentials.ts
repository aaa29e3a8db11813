// The networks' own credentials for direct mode (no service): which inputs hold them, which of them are
// secrets, and which networks they make available. All of it comes from the networks' descriptions:
// a network whose account connects with pasted credentials (no app of ours, so no app review) is one
// direct mode posts to, and each of its connect fields is an input named `<network>-<field>`. X is
// added with the four OAuth 1.0a user-context credentials of X_OAUTH1_FIELDS (networks.ts says why).
import { NETWORK_IDS, NETWORK_RULES, type NetworkId } from "@socialpub/core";
import type { ConnectField } from "@socialpub/networks/describe";
import { InputError } from "../input-error.ts";
import type { InputReader } from "../inputs.ts";
import { DIRECT_DEFINITIONS, X_DIRECT } from "./networks.ts";

/** The networks the in-job service connects and posts to, in the contract's order. */
export const IN_JOB_NETWORKS: readonly NetworkId[] = DIRECT_DEFINITIONS.map((network) => network.id);

/** Networks direct mode can post to: those whose credentials need no app review, in the contract's order. */
export const DIRECT_NETWORKS: readonly NetworkId[] = NETWORK_IDS.filter(
  (id) => id === X_DIRECT.id || IN_JOB_NETWORKS.includes(id),
);
export type DirectNetwork = NetworkId;

/**
 * The credentials given, per network: each connect field's value under its name in camelCase
 * (`app_password` → `appPassword`); an optional field left empty is undefined.
 */
export type DirectCredentials = Partial<Record<NetworkId, Record<string, string | undefined>>>;

/** One connect field of a direct network, as an input of the Action. */
export interface DirectInput {
  /** The input's name: `bluesky-app-password` for Bluesky's `app_password`. */
  readonly input: string;
  /** Where its value goes in DirectCredentials. */
  readonly key: string;
  readonly field: ConnectField;
}

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The inputs of a direct network, in the order its connect form asks (required ones first there). */
export function directInputsOf(network: NetworkId): DirectInput[] {
  const fields: readonly ConnectField[] =
    network === X_DIRECT.id
      ? X_DIRECT.fields
      : (DIRECT_DEFINITIONS.find((d) => d.id === network)?.connect.fields ?? []);
  return fields.map((field) => ({
    input: `${network}-${field.name.replaceAll("_", "-")}`,
    key: camelCase(field.name),
    field,
  }));
}

/** The inputs a network cannot post without, in words: "`bluesky-handle` and `bluesky-app-password`". */
export function requiredInputsText(network: NetworkId): string {
  return list(
    directInputsOf(network)
      .filter(({ field }) => field.required)
      .map(({ input }) => input),
  );
}

/**
 * Inputs masked before anything runs: the fields a connect form masks. A handle, a chat or a service
 * address is not secret; a bot token, an app password and a webhook URL (which holds the webhook's
 * token) are.
 */
export const DIRECT_SECRET_INPUTS: readonly string[] = DIRECT_NETWORKS.flatMap((network) =>
  directInputsOf(network)
    .filter(({ field }) => field.secret)
    .map(({ input }) => input),
);

/** Every direct-mode input that is set, so a message can say which to drop. */
export function directInputsGiven(read: InputReader): string[] {
  return DIRECT_NETWORKS.flatMap((network) => directInputsOf(network).map(({ input }) => input)).filter(
    (name) => read(name).trim() !== "",
  );
}

/** The credentials given, per network; a network with only part of its inputs fails, naming the rest. */
export function readDirectCredentials(read: InputReader): DirectCredentials {
  const value = (name: string) => read(name).trim();
  const out: DirectCredentials = {};
  for (const network of DIRECT_NETWORKS) {
    const inputs = directInputsOf(network);
    const required = inputs.filter(({ field }) => field.required).map(({ input }) => input);
    const given = inputs.map(({ input }) => input).filter((name) => value(name) !== "");
    if (given.length === 0) continue;
    const missing = required.filter((name) => value(name) === "");
    if (missing.length > 0) {
      throw new InputError(
        `${list(given)} ${given.length === 1 ? "is" : "are"} set but ${list(missing)} ${missing.length === 1 ? "is" : "are"} empty: ` +
          `posting to ${NETWORK_RULES[network].name} directly needs ${list(required)}. Set ${missing.length === 1 ? "it" : "them"} from a repository secret, or drop ${list(given)}.`,
      );
    }
    const credentials: Record<string, string | undefined> = {};
    for (const { input, key, field } of inputs) {
      const text = value(input);
      credentials[key] = field.origin ? parseOrigin(input, field, text) : text === "" ? undefined : text;
    }
    out[network] = credentials;
  }
  return out;
}

/** The networks that have credentials, in the order of DIRECT_NETWORKS. */
export function networksWithCredentials(credentials: DirectCredentials): DirectNetwork[] {
  return DIRECT_NETWORKS.filter((network) => credentials[network] !== undefined);
}

/** The networks with credentials that the in-job service connects (all but X). */
export function inJobNetworksWithCredentials(credentials: DirectCredentials): DirectNetwork[] {
  return networksWithCredentials(credentials).filter((network) => IN_JOB_NETWORKS.includes(network));
}

/** The body of POST /accounts/connect for a network's credentials: each field under its own name. */
export function connectBody(network: NetworkId, credentials: DirectCredentials): Record<string, string> {
  const given = credentials[network] ?? {};
  const body: Record<string, string> = { platform: network };
  for (const { key, field } of directInputsOf(network)) {
    const value = given[key];
    if (value !== undefined && value !== "") body[field.name] = value;
  }
  return body;
}

/** A server's address (a Bluesky PDS): an http(s) URL, of which only the origin is kept. */
function parseOrigin(input: string, field: ConnectField, text: string): string | undefined {
  if (text === "") return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const empty = field.placeholder ? ` (empty: ${field.placeholder})` : "";
    throw new InputError(
      `The \`${input}\` input "${text}" is not a URL. Give the address of the ${field.label} the account is on, e.g. https://${field.label.toLowerCase()}.example.com${empty}.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InputError(`The \`${input}\` input must start with https://, not ${url.protocol}//.`);
  }
  return url.origin;
}

/** "`a`", "`a` and `b`", "`a`, `b` and `c`". */
function list(names: readonly string[]): string {
  const quoted = names.map((name) => `\`${name}\``);
  return quoted.length > 2 ? `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}` : quoted.join(" and ");
}
