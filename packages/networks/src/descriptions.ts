// The networks as data, in the contract's order: what each is called, how an account connects, what
// the server reads for it (describe.ts). Light to import: no adapter is loaded. A network is added by
// its folder and a line here and in registry.ts (docs/adding-a-network.md).
import { blueskyDescription } from "./bluesky/describe.ts";
import type { ConnectField, NetworkDescription, OAuthConnect } from "./describe.ts";
import { discordDescription } from "./discord/describe.ts";
import { facebookDescription } from "./facebook/describe.ts";
import { instagramDescription } from "./instagram/describe.ts";
import { linkedinDescription } from "./linkedin/describe.ts";
import { pinterestDescription } from "./pinterest/describe.ts";
import { redditDescription } from "./reddit/describe.ts";
import { telegramDescription } from "./telegram/describe.ts";
import { threadsDescription } from "./threads/describe.ts";
import { tiktokDescription } from "./tiktok/describe.ts";
import { xDescription } from "./x/describe.ts";
import { youtubeDescription } from "./youtube/describe.ts";

export type {
  ConnectField,
  CredentialsConnect,
  NetworkDescription,
  OAuthConnect,
  SettingDescription,
  SettingKind,
} from "./describe.ts";
export { settingVariable } from "./describe.ts";

export const DESCRIPTIONS: readonly NetworkDescription[] = [
  tiktokDescription,
  instagramDescription,
  youtubeDescription,
  xDescription,
  linkedinDescription,
  facebookDescription,
  threadsDescription,
  pinterestDescription,
  redditDescription,
  blueskyDescription,
  discordDescription,
  telegramDescription,
];

/** The networks an account connects to with credentials pasted, and the fields each takes. */
export const CREDENTIAL_NETWORKS: readonly NetworkDescription[] = DESCRIPTIONS.filter(
  (d) => d.connect.kind === "credentials",
);

/** The networks an account connects to through the network's own page (OAuth). */
export const OAUTH_NETWORKS: readonly (NetworkDescription & { connect: OAuthConnect })[] =
  DESCRIPTIONS.filter((d): d is NetworkDescription & { connect: OAuthConnect } => d.connect.kind === "oauth");

/** What a network's connect takes from the person connecting, in the order a form asks. */
export const connectFieldsOf = (description: NetworkDescription): readonly ConnectField[] =>
  description.connect.fields;
