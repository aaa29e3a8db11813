// The networks' own credentials for direct mode (no service): which inputs hold them, which of them are
// secrets, and which networks they make available.
import type { NetworkId } from "@socialpub/core";
import { InputError } from "../input-error.ts";
import type { InputReader } from "../inputs.ts";

/** Networks direct mode can post to: those whose credentials need no app review. */
export const DIRECT_NETWORKS = ["bluesky", "telegram", "discord"] as const satisfies readonly NetworkId[];
export type DirectNetwork = (typeof DIRECT_NETWORKS)[number];

export interface DirectCredentials {
  bluesky?: { handle: string; appPassword: string; service: string | undefined };
  telegram?: { botToken: string; chat: string };
  discord?: { webhookUrl: string };
}

/** The inputs of each network, in the order a message lists them. */
const NETWORK_INPUTS: Readonly<Record<DirectNetwork, { required: string[]; optional: string[] }>> = {
  bluesky: { required: ["bluesky-handle", "bluesky-app-password"], optional: ["bluesky-service"] },
  telegram: { required: ["telegram-bot-token", "telegram-chat"], optional: [] },
  discord: { required: ["discord-webhook-url"], optional: [] },
};

/**
 * Inputs masked before anything runs. The handle, the chat and the service address are not secret,
 * but the bot token and the webhook URL (which holds the webhook's token) are, as is the app password.
 */
export const DIRECT_SECRET_INPUTS = ["bluesky-app-password", "telegram-bot-token", "discord-webhook-url"];

/** Every direct-mode input that is set, so a message can say which to drop. */
export function directInputsGiven(read: InputReader): string[] {
  return Object.values(NETWORK_INPUTS)
    .flatMap((inputs) => [...inputs.required, ...inputs.optional])
    .filter((name) => read(name).trim() !== "");
}

/** The credentials given, per network; a network with only part of its inputs fails, naming the rest. */
export function readDirectCredentials(read: InputReader): DirectCredentials {
  const value = (name: string) => read(name).trim();
  const out: DirectCredentials = {};
  for (const network of DIRECT_NETWORKS) {
    const { required, optional } = NETWORK_INPUTS[network];
    const given = [...required, ...optional].filter((name) => value(name) !== "");
    if (given.length === 0) continue;
    const missing = required.filter((name) => value(name) === "");
    if (missing.length > 0) {
      throw new InputError(
        `${list(given)} ${given.length === 1 ? "is" : "are"} set but ${list(missing)} ${missing.length === 1 ? "is" : "are"} empty: ` +
          `posting to ${network} directly needs ${list(required)}. Set ${missing.length === 1 ? "it" : "them"} from a repository secret, or drop ${list(given)}.`,
      );
    }
  }
  if (value("bluesky-handle") !== "") {
    out.bluesky = {
      handle: value("bluesky-handle"),
      appPassword: value("bluesky-app-password"),
      service: parseService(value("bluesky-service")),
    };
  }
  if (value("telegram-bot-token") !== "") {
    out.telegram = { botToken: value("telegram-bot-token"), chat: value("telegram-chat") };
  }
  if (value("discord-webhook-url") !== "") out.discord = { webhookUrl: value("discord-webhook-url") };
  return out;
}

/** The networks that have credentials, in the order of DIRECT_NETWORKS. */
export function networksWithCredentials(credentials: DirectCredentials): DirectNetwork[] {
  return DIRECT_NETWORKS.filter((network) => credentials[network] !== undefined);
}

function parseService(text: string): string | undefined {
  if (text === "") return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(
      `The \`bluesky-service\` input "${text}" is not a URL. Give the address of the PDS the account is on, e.g. https://pds.example.com (empty: https://bsky.social).`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InputError(`The \`bluesky-service\` input must start with https://, not ${url.protocol}//.`);
  }
  return url.origin;
}

function list(names: readonly string[]): string {
  return names.map((name) => `\`${name}\``).join(" and ");
}
