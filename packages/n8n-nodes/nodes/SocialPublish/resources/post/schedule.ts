import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { idempotencyKeyOption, readIdempotencyKey } from "../../../shared/idempotency";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import { captionField, captionsField, mediaFields, networksField, readCaptions, readMedia } from "./content";
import { readNetworks } from "./networks";
import { readRichFields, richPostFields } from "./rich";
import { readScheduleAt, scheduleAtField } from "./scheduleAt";

/**
 * Queues a post through POST /schedule: at the next best slot (the hour of the week with the best
 * reported engagement on these networks, else 09:00, 12:00 or 17:00 UTC; never two posts on a network
 * in one slot), or at a given time.
 */
export const schedulePost: Operation = {
  properties: [
    captionField,
    networksField,
    {
      displayName: "When",
      name: "when",
      type: "options",
      options: [
        {
          name: "Next Best Slot",
          value: "next",
          description:
            "The service picks the hour with the best reported engagement on these networks, at least 5 minutes ahead and free of your other posts to them",
        },
        { name: "At a Time", value: "at", description: "A date and time you give" },
      ],
      default: "next",
      description: "When the post publishes",
    },
    { ...scheduleAtField, displayOptions: { show: { when: ["at"] } } },
    ...mediaFields(),
    captionsField,
    ...richPostFields(),
    {
      displayName: "Options",
      name: "options",
      type: "collection",
      placeholder: "Add Option",
      default: {},
      options: [idempotencyKeyOption],
    },
  ],
  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    const options = this.getNodeParameter("options", itemIndex, {}) as { idempotencyKey?: string };
    const idempotencyKey = readIdempotencyKey.call(this, itemIndex, "post.schedule", options.idempotencyKey);
    const body: IDataObject = {
      caption: this.getNodeParameter("caption", itemIndex, "") as string,
      platforms: readNetworks.call(this, itemIndex),
      at:
        this.getNodeParameter("when", itemIndex, "next") === "at"
          ? readScheduleAt.call(this, itemIndex)
          : "next",
    };
    const captions = readCaptions.call(this, itemIndex);
    if (captions) body.captions = captions;
    readRichFields.call(this, itemIndex, body);
    const media = await readMedia.call(this, itemIndex, idempotencyKey);
    if (media !== undefined) body.media = media;
    return await apiRequest.call(this, {
      method: "POST",
      path: "/schedule",
      body,
      idempotencyKey,
      itemIndex,
    });
  },
};
