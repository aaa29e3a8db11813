import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { NETWORKS } from "../../../shared/contract.generated";
import { defaultIdempotencyKey } from "../../../shared/idempotency";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";

/** Disconnects the account of a network. Scheduled posts keep the network and fail it when due. */
export const disconnectAccount: Operation = {
  properties: [
    {
      displayName: "Network",
      name: "platform",
      type: "options",
      options: NETWORKS.map((network) => ({ name: network.name, value: network.id })),
      default: "x",
      required: true,
      description:
        "Network whose account to disconnect. Scheduled posts to it stay scheduled and fail on this network when they fall due.",
    },
  ],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    const platform = this.getNodeParameter("platform", itemIndex) as string;
    return await apiRequest.call(this, {
      method: "DELETE",
      path: `/accounts/${encodeURIComponent(platform)}`,
      idempotencyKey: defaultIdempotencyKey.call(this, itemIndex, "account.disconnect"),
      itemIndex,
    });
  },
};
