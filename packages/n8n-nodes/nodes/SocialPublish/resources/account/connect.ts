import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { NETWORKS } from "../../../shared/contract.generated";
import { defaultIdempotencyKey } from "../../../shared/idempotency";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";

/**
 * Connects a sandbox account at once (test keys). With a live key, a network that connects through its
 * own page (OAuth: X, LinkedIn, …) is not connected yet: the service answers where to send the person
 * (`authorize_url`, valid until `expires_at`), and connects the account when the network sends them
 * back. The output is the service's answer as it is, so a workflow can mail or post the link on.
 */
const CHOSEN_AT_CONNECT: Record<string, string> = { pinterest: "board", reddit: "subreddit" };

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
        "Network to connect. With a live key, a network that connects through its own page (X, LinkedIn, Facebook, Instagram, Threads, YouTube, TikTok, Pinterest, Reddit) outputs the address to open to grant access.",
    },
    {
      displayName: "Handle",
      name: "handle",
      type: "string",
      default: "",
      placeholder: "@studio",
      description:
        "Account name to show for the sandbox account (test keys). Leave empty for the service's default; not used for networks that connect through their own page.",
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
    // Where the account publishes, chosen at connect by the networks that ask for it.
    const chosen = CHOSEN_AT_CONNECT[platform];
    if (chosen) {
      const value = (this.getNodeParameter(chosen, itemIndex, "") as string).trim();
      if (value !== "") body[chosen] = value;
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
