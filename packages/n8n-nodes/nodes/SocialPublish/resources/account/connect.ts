import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { NETWORKS } from "../../../shared/contract.generated";
import { defaultIdempotencyKey } from "../../../shared/idempotency";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";

/**
 * Connects a sandbox account at once (test keys). With a live key, Bluesky, Telegram and Discord connect
 * at once with the credentials given here (the network checks them before the service answers), and
 * a network that connects through its own page (OAuth: X, LinkedIn, …) is not connected yet: the
 * service answers where to send the person (`authorize_url`, valid until `expires_at`), and connects
 * the account when the network sends them back. The output is the service's answer as it is, so a
 * workflow can mail or post the link on; it never holds the credentials sent.
 */

/** The fields each network takes at connect besides the handle, as the contract's connect body names them. */
export const CONNECT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  bluesky: ["app_password", "service"],
  telegram: ["bot_token", "chat"],
  discord: ["webhook_url"],
  facebook: ["page"],
  pinterest: ["board"],
  reddit: ["subreddit"],
};

export const connectAccount: Operation = {
  properties: [
    {
      displayName: "Network",
      name: "platform",
      type: "options",
      options: NETWORKS.map((network) => ({ name: network.name, value: network.id })),
      default: "x",
      required: true,
      description:
        "Network to connect. With a live key, Bluesky, Telegram and Discord connect at once with the credentials below; a network that connects through its own page (X, LinkedIn, Facebook, Instagram, Threads, YouTube, TikTok, Pinterest, Reddit) outputs the address to open to grant access.",
    },
    {
      displayName: "Handle",
      name: "handle",
      type: "string",
      default: "",
      placeholder: "@studio",
      description:
        "Test key: the sandbox account's name to show (leave empty for the service's default). Live key, Bluesky: the account's handle or e-mail. Not used by other live networks.",
    },
    {
      displayName: "App Password",
      name: "app_password",
      type: "string",
      typeOptions: { password: true },
      default: "",
      displayOptions: { show: { platform: ["bluesky"] } },
      description:
        "Live key: an app password made in Bluesky's settings under App passwords, not the account's own password",
    },
    {
      displayName: "PDS URL",
      name: "service",
      type: "string",
      default: "",
      placeholder: "https://bsky.social",
      displayOptions: { show: { platform: ["bluesky"] } },
      description: "Live key: the account's server. Leave empty for bsky.social.",
    },
    {
      displayName: "Bot Token",
      name: "bot_token",
      type: "string",
      typeOptions: { password: true },
      default: "",
      displayOptions: { show: { platform: ["telegram"] } },
      description: "Live key: the bot's token from BotFather",
    },
    {
      displayName: "Chat",
      name: "chat",
      type: "string",
      default: "",
      placeholder: "@channel",
      displayOptions: { show: { platform: ["telegram"] } },
      description:
        "Live key: the channel or group to post to, @name or numeric ID. The bot must be an admin of it.",
    },
    {
      displayName: "Webhook URL",
      name: "webhook_url",
      type: "string",
      typeOptions: { password: true },
      default: "",
      displayOptions: { show: { platform: ["discord"] } },
      description:
        "Live key: the channel's webhook URL (Integrations → Webhooks). It holds the webhook's token, so treat it as a secret.",
    },
    {
      displayName: "Page",
      name: "page",
      type: "string",
      default: "",
      displayOptions: { show: { platform: ["facebook"] } },
      description:
        "Live key: the Facebook Page posts go to, by name or ID. Leave empty for the first Page given on Facebook's dialog.",
    },
    {
      displayName: "Board",
      name: "board",
      type: "string",
      default: "",
      displayOptions: { show: { platform: ["pinterest"] } },
      description:
        "Live key: the board pins go to, by name or ID. Leave empty for the account's first board.",
    },
    {
      displayName: "Subreddit",
      name: "subreddit",
      type: "string",
      default: "",
      placeholder: "r/name",
      displayOptions: { show: { platform: ["reddit"] } },
      description: "Live key: the subreddit posts go to. Leave empty for the account's own profile.",
    },
  ],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    const platform = this.getNodeParameter("platform", itemIndex) as string;
    const body: IDataObject = { platform };
    const handle = (this.getNodeParameter("handle", itemIndex, "") as string).trim();
    if (handle !== "") body.handle = handle;
    // Credentials, and where the account publishes, for the networks that take them at connect.
    for (const field of CONNECT_FIELDS[platform] ?? []) {
      const value = String(this.getNodeParameter(field, itemIndex, "")).trim();
      if (value === "") continue;
      // A Telegram chat is @name or a numeric id, which the service takes as a number.
      body[field] = field === "chat" && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
    }
    return await apiRequest.call(this, {
      method: "POST",
      path: "/accounts/connect",
      body,
      idempotencyKey: defaultIdempotencyKey.call(this, itemIndex, "account.connect"),
      itemIndex,
    });
  },
};
