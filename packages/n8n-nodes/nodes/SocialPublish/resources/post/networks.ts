import type { IExecuteFunctions } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";

/**
 * The Networks parameter as a list of ids. The picker gives an array; an expression may give an array
 * or a comma-separated string ("x, linkedin"). The service decides which ids are connected.
 */
export function readNetworks(this: IExecuteFunctions, itemIndex: number): string[] {
  return splitNetworks.call(this, this.getNodeParameter("networks", itemIndex, []), itemIndex);
}

/** A networks value (array, comma-separated string or one id) as a list of ids without duplicates. */
export function splitNetworks(this: IExecuteFunctions, value: unknown, itemIndex: number): string[] {
  const list = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : [value];
  const networks = list.map((entry) => (typeof entry === "string" ? entry.trim() : entry));
  if (networks.some((entry) => typeof entry !== "string")) {
    throw new NodeOperationError(this.getNode(), "Networks must be network ids such as x or linkedin", {
      description: `Got ${JSON.stringify(value)}. Use the list, an array of ids, or a comma-separated string.`,
      itemIndex,
    });
  }
  return [...new Set((networks as string[]).filter((id) => id !== ""))];
}
