import type { INodeProperties } from "n8n-workflow";
import { type Operation, resourceProperties } from "../../operation";
import { uploadMedia } from "./upload";

export const mediaOperations: Record<string, Operation> = { upload: uploadMedia };

const operationSelector: INodeProperties = {
  displayName: "Operation",
  name: "operation",
  type: "options",
  noDataExpression: true,
  options: [
    {
      name: "Upload",
      value: "upload",
      action: "Upload media",
      description: "Upload an image or video and get its med_ ID, to attach to posts",
    },
  ],
  default: "upload",
};

export const mediaProperties: INodeProperties[] = resourceProperties(
  "media",
  operationSelector,
  mediaOperations,
);
