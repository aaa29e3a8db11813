import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { NETWORKS } from "../../../shared/contract.generated";
import { defaultIdempotencyKey } from "../../../shared/idempotency";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";

/** Connects a sandbox account at once (test keys). A live key would answer with an authorization link. */
export const connectAccount: Operation = {
  properties: [
    {
      displayName: "Network",
      name: "platform",
      type: "options",
      options: NETWORKS.map((network) => ({ name: network.name, value: network.id })),
      default: "x",
      required: true,
      description: "Network to connect",
    },
    {
      displayName: "Handle",
      name: "handle",
      type: "string",
      default: "",
      placeholder: "@studio",
      description: "Account name to show for the sandbox account. Leave empty for the service's default.",
    },
  ],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    const body: IDataObject = { platform: this.getNodeParameter("platform", itemIndex) as string };
    const handle = (this.getNodeParameter("handle", itemIndex, "") as string).trim();
    if (handle !== "") body.handle = handle;
    return await apiRequest.call(this, {
      method: "POST",
      path: "/accounts/connect",
      body,
      idempotencyKey: defaultIdempotencyKey.call(this, itemIndex, "account.connect"),
      itemIndex,
    });
  },
};
