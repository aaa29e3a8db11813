import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { defaultIdempotencyKey } from "../../../shared/idempotency";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import { readMedia } from "./content";
import { newPostFields, readNewPost } from "./newPost";

/**
 * Checks a post as Create would send it, without publishing or storing it (POST /posts/validate):
 * outputs `{valid: true, targets}` — each network's text and media as it would publish them, and what
 * was adapted — or fails the item with the service's 400, the one Create would meet.
 */
export const validatePost: Operation = {
  properties: newPostFields(),
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    const { body } = readNewPost.call(this, itemIndex);
    // A binary file is uploaded (POST /media, keyed like any write) so the check sees its type; a URL
    // or med_ id is sent as given. The validation itself takes no key: it changes nothing.
    const media = await readMedia.call(
      this,
      itemIndex,
      defaultIdempotencyKey.call(this, itemIndex, "post.validate"),
    );
    if (media !== undefined) body.media = media;
    return await apiRequest.call(this, { method: "POST", path: "/posts/validate", body, itemIndex });
  },
};
