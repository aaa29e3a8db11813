import type {
  IDataObject,
  IExecuteFunctions,
  INodeExecutionData,
  INodeType,
  INodeTypeDescription,
  JsonObject,
} from "n8n-workflow";
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from "n8n-workflow";
import { getConnectedNetworks } from "./methods/loadOptions";
import type { Operation } from "./operation";
import { accountOperations, accountProperties } from "./resources/account";
import { analyticsOperations, analyticsProperties } from "./resources/analytics";
import { postOperations, postProperties } from "./resources/post";
import { userOperations, userProperties } from "./resources/user";

const operationsByResource: Record<string, Record<string, Operation>> = {
  post: postOperations,
  account: accountOperations,
  analytics: analyticsOperations,
  user: userOperations,
};

export class SocialPublish implements INodeType {
  description: INodeTypeDescription = {
    displayName: "Social Publish",
    name: "socialPublish",
    icon: { light: "file:../../icons/socialpub.svg", dark: "file:../../icons/socialpub.dark.svg" },
    group: ["output"],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: "Publish and schedule posts to social networks, and read their results and analytics",
    defaults: { name: "Social Publish" },
    usableAsTool: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: "socialPublishApi", required: true }],
    properties: [
      {
        displayName: "Resource",
        name: "resource",
        type: "options",
        noDataExpression: true,
        options: [
          { name: "Account", value: "account" },
          { name: "Analytic", value: "analytics" },
          { name: "Post", value: "post" },
          { name: "User", value: "user" },
        ],
        default: "post",
      },
      ...postProperties,
      ...accountProperties,
      ...analyticsProperties,
      ...userProperties,
    ],
  };

  methods = {
    loadOptions: { getConnectedNetworks },
  };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const items = this.getInputData();
    const output: INodeExecutionData[] = [];
    for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
      try {
        const resource = this.getNodeParameter("resource", itemIndex) as string;
        const operationName = this.getNodeParameter("operation", itemIndex) as string;
        const operation = operationsByResource[resource]?.[operationName];
        if (!operation) {
          throw new NodeOperationError(
            this.getNode(),
            `Unknown operation "${operationName}" on "${resource}"`,
            {
              itemIndex,
            },
          );
        }
        const result = await operation.execute.call(this, itemIndex);
        const results: IDataObject[] = Array.isArray(result) ? result : [result];
        for (const json of results) output.push({ json, pairedItem: { item: itemIndex } });
      } catch (error) {
        if (this.continueOnFail()) {
          output.push({ json: { error: (error as Error).message }, pairedItem: { item: itemIndex } });
          continue;
        }
        if (error instanceof NodeApiError)
          throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
        throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
      }
    }
    return [output];
  }
}
