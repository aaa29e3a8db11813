import type { INodeProperties } from "n8n-workflow";
import { type Operation, resourceProperties } from "../../operation";
import { getAnalytics } from "./get";

export const analyticsOperations: Record<string, Operation> = { get: getAnalytics };

const operationSelector: INodeProperties = {
  displayName: "Operation",
  name: "operation",
  type: "options",
  noDataExpression: true,
  options: [
    {
      name: "Get",
      value: "get",
      action: "Get analytics",
      description: "Get total reach, engagement rate, posts published and followers, per network too",
    },
  ],
  default: "get",
};

export const analyticsProperties: INodeProperties[] = resourceProperties(
  "analytics",
  operationSelector,
  analyticsOperations,
);
