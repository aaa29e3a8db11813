import type { INodeProperties } from "n8n-workflow";
import { type Operation, resourceProperties } from "../../operation";
import { connectAccount } from "./connect";
import { disconnectAccount } from "./disconnect";
import { getManyAccounts } from "./getAll";

export const accountOperations: Record<string, Operation> = {
  connect: connectAccount,
  disconnect: disconnectAccount,
  getAll: getManyAccounts,
};

const operationSelector: INodeProperties = {
  displayName: "Operation",
  name: "operation",
  type: "options",
  noDataExpression: true,
  options: [
    {
      name: "Connect",
      value: "connect",
      action: "Connect an account",
      description:
        "Connect a sandbox account (test keys); with a live key, connect Bluesky, Telegram or Discord with their credentials, or get the address where another network's account is authorized",
    },
    {
      name: "Disconnect",
      value: "disconnect",
      action: "Disconnect an account",
      description: "Disconnect the account of a network",
    },
    {
      name: "Get Many",
      value: "getAll",
      action: "Get many accounts",
      description: "List the connected accounts with followers and health",
    },
  ],
  default: "getAll",
};

export const accountProperties: INodeProperties[] = resourceProperties(
  "account",
  operationSelector,
  accountOperations,
);
