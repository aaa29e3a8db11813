import type { IExecuteFunctions, INodeProperties } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";

export const postIdField: INodeProperties = {
  displayName: "Post ID",
  name: "postId",
  type: "string",
  default: "",
  required: true,
  placeholder: "post_01J…",
  description: "ID of the post, as returned when it was created",
};

/** The Post ID parameter; an empty ID is an error naming the field. */
export function readPostId(this: IExecuteFunctions, itemIndex: number): string {
  const postId = String(this.getNodeParameter("postId", itemIndex, "")).trim();
  if (postId === "") {
    throw new NodeOperationError(this.getNode(), "Post ID is empty", {
      description: "Set Post ID to the id of a post, for example {{ $json.id }} after Create.",
      itemIndex,
    });
  }
  return postId;
}

/** The path of the post named by the Post ID parameter. */
export function postPath(this: IExecuteFunctions, itemIndex: number, suffix = ""): string {
  return `/posts/${encodeURIComponent(readPostId.call(this, itemIndex))}${suffix}`;
}
