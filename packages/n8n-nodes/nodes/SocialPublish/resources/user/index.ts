import type { INodeProperties } from "n8n-workflow";
import { type Operation, resourceProperties } from "../../operation";
import { getMe } from "./getMe";

export const userOperations: Record<string, Operation> = { getMe };

const operationSelector: INodeProperties = {
  displayName: "Operation",
  name: "operation",
  type: "options",
  noDataExpression: true,
  options: [
    {
      name: "Get Me",
      value: "getMe",
      action: "Get the current user",
      description: "Get the user of the API key with plan limits and this month's usage",
    },
  ],
  default: "getMe",
};

export const userProperties: INodeProperties[] = resourceProperties(
  "user",
  operationSelector,
  userOperations,
);
