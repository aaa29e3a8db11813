import type { ILoadOptionsFunctions, INodePropertyOptions } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { NETWORKS } from "../../shared/contract.generated";
import { apiRequest } from "../../shared/transport";

/** The networks of the user's connected accounts, for the Networks picker. */
export async function getConnectedNetworks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
  const response = (await apiRequest.call(this, { method: "GET", path: "/accounts" })) as {
    data?: Array<{ platform: string; handle: string; health: string }>;
  };
  const accounts = response.data ?? [];
  if (accounts.length === 0) {
    throw new NodeOperationError(this.getNode(), "No connected accounts", {
      description: "Connect an account in the service first (or with Social Publish → Account → Connect).",
    });
  }
  return accounts.map((account) => {
    const name = NETWORKS.find((network) => network.id === account.platform)?.name ?? account.platform;
    const attention = account.health === "healthy" ? "" : ` — ${account.health.replace(/_/g, " ")}`;
    return { name: `${name} (${account.handle})${attention}`, value: account.platform };
  });
}
