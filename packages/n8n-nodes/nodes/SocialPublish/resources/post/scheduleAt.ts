import type { IExecuteFunctions, INodeProperties } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { resolveScheduleAt } from "../../../shared/schedule";

export const scheduleAtField: INodeProperties = {
  displayName: "Schedule At",
  name: "scheduleAt",
  type: "dateTime",
  default: "",
  required: true,
  description:
    "When to publish: a date and time (read in the workflow's time zone when it has no offset), an ISO 8601 time with an offset, or a Unix timestamp. Must not be in the past.",
};

/** The instant a scheduled post is due, in Unix milliseconds. */
export function readScheduleAt(this: IExecuteFunctions, itemIndex: number, name = "scheduleAt"): number {
  const value = this.getNodeParameter(name, itemIndex, "") as unknown;
  const result = resolveScheduleAt(value, this.getTimezone());
  if (!result.ok) {
    throw new NodeOperationError(this.getNode(), `Schedule At is invalid: ${result.reason}`, { itemIndex });
  }
  return result.at;
}
