import type {
  IDataObject,
  IExecuteFunctions,
  INodeExecutionData,
  INodeType,
  INodeTypeDescription,
  JsonObject,
} from "n8n-workflow";
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from "n8n-workflow";
import { errorItem } from "../shared/errorItem";
import { getConnectedNetworks } from "./methods/loadOptions";
import type { Operation } from "./operation";
import { accountOperations, accountProperties } from "./resources/account";
import { analyticsOperations, analyticsProperties } from "./resources/analytics";
import { mediaOperations, mediaProperties } from "./resources/media";
import { postOperations, postProperties } from "./resources/post";
import { userOperations, userProperties } from "./resources/user";

const properties: INodeTypeDescription["properties"] = [
  {
    displayName: "Resource",
    name: "resource",
    type: "options",
    noDataExpression: true,
    options: [
      { name: "Account", value: "account" },
      { name: "Analytics", value: "analytics" },
      { name: "Media", value: "media" },
      { name: "Post", value: "post" },
      { name: "User", value: "user" },
    ],
    default: "post",
  },
  ...postProperties,
  ...mediaProperties,
  ...accountProperties,
  ...analyticsProperties,
  ...userProperties,
];

/**
 * The node's subtitle on the canvas: the chosen operation's action ("Create a post"), looked up from
 * the operation selectors so it never drifts from them.
 */
function subtitle(): string {
  const actions: Record<string, string> = {};
  for (const property of properties) {
    const resource = property.displayOptions?.show?.resource?.[0];
    if (property.name !== "operation" || typeof resource !== "string") continue;
    for (const option of property.options ?? []) {
      if ("value" in option) actions[`${resource}:${String(option.value)}`] = option.action ?? option.name;
    }
  }
  return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}

const operationsByResource: Record<string, Record<string, Operation>> = {
  post: postOperations,
  account: accountOperations,
  analytics: analyticsOperations,
  media: mediaOperations,
  user: userOperations,
};

export class SocialPublish implements INodeType {
  description: INodeTypeDescription = {
    displayName: "Social Publish",
    name: "socialPublish",
    icon: { light: "file:../../icons/socialpub.svg", dark: "file:../../icons/socialpub.dark.svg" },
    group: ["output"],
    version: 1,
    subtitle: subtitle(),
    description: "Publish and schedule posts to social networks, and read their results and analytics",
    defaults: { name: "Social Publish" },
    usableAsTool: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: "socialPublishApi", required: true }],
    properties,
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
          output.push(errorItem(this.getNode(), error as Error, itemIndex));
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
