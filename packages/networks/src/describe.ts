// What a network is, as data: what it is called, how an account connects, what the server may set for
// it, its rules. Each network's folder declares its own (describe.ts) and the descriptions list
// (descriptions.ts) gathers them; everything that lists networks — the server's settings and CLI, the
// dashboard's connect forms, the n8n node's connect fields — reads them. Nothing here loads an adapter,
// so a consumer that only lists networks (the dashboard, a build script) stays light.
import type { NetworkAdapter, NetworkId, NetworkRule, PacingRule } from "@socialpub/core";

/** A field of POST /accounts/connect that a network takes from the person connecting. */
export interface ConnectField {
  /** The body field, as the contract's connect body names it. */
  readonly name: string;
  /** What a form calls it ("App password"). */
  readonly label: string;
  /** A secret is typed into a masked field, never kept and never shown back. */
  readonly secret: boolean;
  readonly required: boolean;
  readonly placeholder?: string;
  /** One or two sentences saying where to find it or what leaving it empty means. */
  readonly help?: string;
  /** The field takes a numeric id sent as a number, else text (a Telegram chat: @name or -100…). */
  readonly numericId?: boolean;
  /** The field is a server's address (an http(s) URL) of which only the origin counts. */
  readonly origin?: boolean;
}

/** An account connects with credentials the person pastes; the network checks them at once. */
export interface CredentialsConnect {
  readonly kind: "credentials";
  readonly fields: readonly ConnectField[];
}

/**
 * An account connects through the network's own page (OAuth): the server sends the person there and
 * finishes the connect when the network sends them back. `fields` are the choices made at connect
 * besides the grant (where the account publishes), each optional.
 */
export interface OAuthConnect {
  readonly kind: "oauth";
  /** What the server asks for unless SOCIALPUB_<NETWORK>_SCOPES says otherwise. */
  readonly scopes: readonly string[];
  /** Whether the authorization code flow carries a PKCE challenge (S256). */
  readonly pkce: boolean;
  /** Where the person grants access, as an error names it ("X's own page"). */
  readonly page: string;
  readonly fields: readonly ConnectField[];
}

/**
 * How a setting's text is read. `url` and `text` are taken as given (text trimmed); `secret` is text
 * that no message quotes; `list` is split on spaces and commas; `boolean` is true/1/yes/on or
 * false/0/no/off, anything else refused.
 */
export type SettingKind = "url" | "text" | "secret" | "list" | "boolean";

/**
 * A setting the server reads for a network: SOCIALPUB_<NETWORK>_<NAME> in the environment, or
 * `networks.<network>.<name>` in the config file.
 */
export interface SettingDescription {
  /** The name in the config file (`api_url`); upper-cased, the variable's last part. */
  readonly name: string;
  /** The option of the network's `create` it sets. */
  readonly option: string;
  readonly kind: SettingKind;
  /** Without it the network cannot connect an account: a connect answers 400 naming it. */
  readonly required?: boolean;
  /** What it is and its default, for the docs and the CLI. */
  readonly about: string;
}

export interface NetworkDescription<Id extends NetworkId = NetworkId> {
  readonly id: Id;
  /** Display name (the contract's). */
  readonly name: string;
  readonly connect: CredentialsConnect | OAuthConnect;
  readonly settings: readonly SettingDescription[];
  /** Text limit and media rules (the contract's). */
  readonly rules: NetworkRule;
  /** The network's own limits on publishing, per account. */
  readonly pacing: readonly PacingRule[];
}

/** A network's description and the factory of its adapter from the settings the server read. */
export interface NetworkDefinition<Id extends NetworkId = NetworkId, Settings = never>
  extends NetworkDescription<Id> {
  create(settings: Settings): NetworkAdapter;
}

/** SOCIALPUB_<NETWORK>_<NAME>: the variable a network's setting is read from. */
export const settingVariable = (network: NetworkId, setting: Pick<SettingDescription, "name">): string =>
  `SOCIALPUB_${network.toUpperCase()}_${setting.name.toUpperCase()}`;

/** The settings every OAuth network has: where its API and authorize page are, and its app. */
export function oauthSettings(api: string, authorize: string): readonly SettingDescription[] {
  return [
    { name: "api_url", option: "apiUrl", kind: "url", about: api },
    { name: "auth_url", option: "authorizeUrl", kind: "url", about: authorize },
    {
      name: "client_id",
      option: "clientId",
      kind: "text",
      required: true,
      about: "the app's OAuth client id, from the network's developer console",
    },
    {
      name: "client_secret",
      option: "clientSecret",
      kind: "secret",
      required: true,
      about: "the app's OAuth client secret, from the network's developer console",
    },
    {
      name: "scopes",
      option: "scopes",
      kind: "list",
      about: "the scopes to ask for, separated by spaces or commas, instead of the network's defaults",
    },
  ];
}

/** A network's definition: its description, and `create` building its adapter from its settings. */
export function defineNetwork<const D extends NetworkDescription, Settings>(
  description: D,
  create: (settings: Settings) => NetworkAdapter,
): D & { create(settings: Settings): NetworkAdapter } {
  return { ...description, create };
}
