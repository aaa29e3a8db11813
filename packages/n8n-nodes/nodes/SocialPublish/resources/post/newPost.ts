import type { IDataObject, IExecuteFunctions, INodeProperties } from "n8n-workflow";
import { captionField, captionsField, mediaFields, networksField, readCaptions } from "./content";
import { readNetworks } from "./networks";
import { readRichFields, richPostFields } from "./rich";
import { readScheduleAt, scheduleAtField } from "./scheduleAt";

// The fields of a new post — what it says, where and when it goes out — shared by Create, which makes
// the post, and Validate, which checks it without making it, with the code that reads them into the
// body of POST /posts (and of POST /posts/validate, which takes the same body).

/** When the post goes out: now, at a time, or kept as a draft. */
export type PublishChoice = "now" | "schedule" | "draft";

export const publishField: INodeProperties = {
  displayName: "Publish",
  name: "publish",
  type: "options",
  options: [
    { name: "Now", value: "now", description: "Publish as soon as the node runs" },
    { name: "At a Scheduled Time", value: "schedule", description: "Queue the post for a date and time" },
    {
      name: "As a Draft",
      value: "draft",
      description: "Keep it unpublished; publish it later with Post → Publish",
    },
  ],
  default: "now",
  description: "When the post goes out",
};

/**
 * Caption, networks, Publish (and its time), media, Text per Network, then the rich fields (thread,
 * long text, first comment, poll, each network's options), in the order shown.
 */
export function newPostFields(): INodeProperties[] {
  return [
    captionField,
    networksField,
    publishField,
    { ...scheduleAtField, displayOptions: { show: { publish: ["schedule"] } } },
    ...mediaFields(),
    captionsField,
    ...richPostFields(),
  ];
}

/**
 * The body of a new post from its fields, without its media (which may need an upload first: see
 * readMedia), and the Publish choice it was read with. Every field is checked here, before anything
 * is uploaded or sent.
 */
export function readNewPost(
  this: IExecuteFunctions,
  itemIndex: number,
): { body: IDataObject; publish: PublishChoice } {
  const body: IDataObject = {
    caption: this.getNodeParameter("caption", itemIndex, "") as string,
    platforms: readNetworks.call(this, itemIndex),
  };
  const captions = readCaptions.call(this, itemIndex);
  if (captions) body.captions = captions;
  const publish = this.getNodeParameter("publish", itemIndex, "now") as PublishChoice;
  if (publish === "draft") body.draft = true;
  if (publish === "schedule") body.schedule_at = readScheduleAt.call(this, itemIndex);
  readRichFields.call(this, itemIndex, body);
  return { body, publish };
}
