import type { IDataObject, INode, INodeExecutionData } from "n8n-workflow";
import { NodeApiError, NodeOperationError } from "n8n-workflow";

/**
 * The item Continue On Fail outputs for a failed input item, paired with it.
 *
 * n8n sends an item down a node's error output ("On Error → Continue (using error output)") only when
 * the item carries `error`, or its `json` is exactly `{error}` or `{error, message}`. The json below
 * holds more than that — what a workflow may branch on or a support request needs — so the item
 * carries the error itself as well: with "Continue (using error output)" it goes to the error output,
 * with "Continue (regular output)" it goes down the success output as before.
 */
export function errorItem(node: INode, error: Error, itemIndex: number): INodeExecutionData {
  const nodeError =
    error instanceof NodeApiError || error instanceof NodeOperationError
      ? error
      : new NodeOperationError(node, error, { itemIndex });
  return { json: errorJson(nodeError), error: nodeError, pairedItem: { item: itemIndex } };
}

/**
 * The item's json: the message, the hint, the service's HTTP status and request id, and for a post that
 * published nowhere its id and each network's reason.
 */
function errorJson(error: NodeApiError | NodeOperationError): IDataObject {
  const json: IDataObject = { error: error.message };
  const { description, context } = error;
  if (typeof description === "string" && description !== "") json.description = description;
  if (context.httpStatus !== undefined) json.http_status = context.httpStatus;
  if (context.requestId !== undefined) json.request_id = context.requestId;
  if (context.postId !== undefined) json.post_id = context.postId;
  if (context.failures !== undefined) json.failures = context.failures;
  return json;
}
