import type { IDataObject, INode, INodeExecutionData } from "n8n-workflow";

/**
 * The item a node set to continue on error (Settings → On Error) outputs for a failed input item,
 * paired with it: the message, and what the error knows that a workflow may branch on or a support
 * request needs — the hint, the service's HTTP status and request id, and for a post that published
 * nowhere its id and each network's reason.
 *
 * Its shape follows how n8n (2.40) treats such items:
 * - "Continue (using error output)": n8n moves an item to the error output when the item carries
 *   `error`, or when its json holds only `error`, `message` and `details`. An item carrying `error` has
 *   its json replaced by `{error: message}` on the way out, which would drop the details; so the item
 *   is `{error, details: {…}}` instead, and n8n adds the failed input item's fields to it.
 * - "Continue (regular output)": nothing is routed, so the details stay at the top level beside
 *   `error`, where workflows read them (`{{ $json.http_status }}`).
 */
export function errorItem(node: INode, error: Error, itemIndex: number): INodeExecutionData {
  const details = errorDetails(error);
  const json: IDataObject =
    node.onError === "continueErrorOutput"
      ? { error: error.message, ...(Object.keys(details).length > 0 && { details }) }
      : { error: error.message, ...details };
  return { json, pairedItem: { item: itemIndex } };
}

function errorDetails(error: Error): IDataObject {
  const details: IDataObject = {};
  const { description, context } = error as { description?: unknown; context?: IDataObject };
  if (typeof description === "string" && description !== "") details.description = description;
  if (context?.httpStatus !== undefined) details.http_status = context.httpStatus;
  if (context?.requestId !== undefined) details.request_id = context.requestId;
  if (context?.postId !== undefined) details.post_id = context.postId;
  if (context?.failures !== undefined) details.failures = context.failures;
  return details;
}
