import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import type { Operation } from "../../operation";
import { postIdField, readPostId } from "./fields";
import { publishDraft } from "./outcome";

/** Publishes a draft now: one made with Publish → As a Draft, or a post that published on no network. */
export const publishPost: Operation = {
  properties: [
    {
      ...postIdField,
      description:
        "ID of the draft to publish now: a post created as a draft, or one that went back to draft because every network refused it",
    },
  ],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    return await publishDraft.call(this, readPostId.call(this, itemIndex), itemIndex);
  },
};
