import type { IDataObject } from "n8n-workflow";

/**
 * The JSON of the item Continue On Fail outputs for a failed input item: the message, and what the
 * error knows that a workflow may branch on or a support request needs — the service's HTTP status and
 * request id, and for a post that published nowhere its id and each network's reason.
 */
export function errorItem(error: Error): IDataObject {
  const json: IDataObject = { error: error.message };
  const { description, context } = error as { description?: unknown; context?: IDataObject };
  if (typeof description === "string" && description !== "") json.description = description;
  if (context?.httpStatus !== undefined) json.http_status = context.httpStatus;
  if (context?.requestId !== undefined) json.request_id = context.requestId;
  if (context?.postId !== undefined) json.post_id = context.postId;
  if (context?.failures !== undefined) json.failures = context.failures;
  return json;
}
