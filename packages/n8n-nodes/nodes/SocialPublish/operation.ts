import type { IDataObject, IExecuteFunctions, INodeProperties } from "n8n-workflow";

/** One operation of one resource: its fields and what it does for one input item. */
export interface Operation {
  /** Fields shown for this operation (display options are added by the resource). */
  properties: INodeProperties[];
  /** Runs the operation for the item at `itemIndex`; a list becomes one output item per entry. */
  execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}

/** Builds the resource's fields: its operation selector, then each operation's fields shown only for it. */
export function resourceProperties(
  resource: string,
  operationSelector: INodeProperties,
  operations: Record<string, Operation>,
): INodeProperties[] {
  const properties: INodeProperties[] = [
    { ...operationSelector, displayOptions: { show: { resource: [resource] } } },
  ];
  for (const [name, operation] of Object.entries(operations)) {
    for (const property of operation.properties) {
      properties.push({
        ...property,
        displayOptions: {
          ...property.displayOptions,
          show: { ...property.displayOptions?.show, resource: [resource], operation: [name] },
        },
      });
    }
  }
  return properties;
}
