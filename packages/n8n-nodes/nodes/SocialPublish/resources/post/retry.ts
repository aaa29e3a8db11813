import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { defaultIdempotencyKey } from "../../../shared/idempotency";
import { apiError, sendRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import { postIdField, postPath } from "./fields";
import { type PostLike, publishOutcome } from "./outcome";

/**
 * Sends again the networks of a post that failed (POST /posts/{id}/retry), leaving those that
 * published as they are, and outputs the post with the networks that still failed, as Create does.
 */
export const retryPost: Operation = {
  properties: [
    {
      ...postIdField,
      description:
        "ID of a post with networks that failed: each is sent again once, with its account as it is now. Reconnect an account first when that is why it failed.",
    },
  ],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    const path = postPath.call(this, itemIndex, "/retry");
    const idempotencyKey = defaultIdempotencyKey.call(this, itemIndex, "post.retry");
    let response = await sendRequest.call(this, { method: "POST", path, idempotencyKey, itemIndex });
    // A replayed draft is this item's earlier retry, which published nowhere, met again when the
    // execution is retried — perhaps after its cause was fixed: send the networks again rather than
    // repeat the old failure. Without a key: the post's state keeps two retries from sending twice.
    if (
      response.status >= 200 &&
      response.status < 300 &&
      response.headers["idempotent-replayed"] === "true" &&
      (response.body as PostLike).status === "draft"
    ) {
      response = await sendRequest.call(this, { method: "POST", path, itemIndex });
    }
    if (response.status < 200 || response.status >= 300) throw apiError.call(this, response, itemIndex);
    return await publishOutcome.call(
      this,
      response.body as PostLike,
      itemIndex,
      response.headers["x-request-id"],
    );
  },
};
