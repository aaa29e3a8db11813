import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { defaultIdempotencyKey } from "../../../shared/idempotency";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import { postIdField, postPath } from "./fields";

export const deletePost: Operation = {
  properties: [
    {
      ...postIdField,
      description:
        "ID of the post. A draft is deleted, a scheduled post is cancelled so it never publishes, and a published post's record is removed (it stays on the networks).",
    },
  ],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    return await apiRequest.call(this, {
      method: "DELETE",
      path: postPath.call(this, itemIndex),
      idempotencyKey: defaultIdempotencyKey.call(this, itemIndex, "post.delete"),
      itemIndex,
    });
  },
};
