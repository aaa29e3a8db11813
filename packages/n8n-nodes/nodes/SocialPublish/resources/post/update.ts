import type { IDataObject, IExecuteFunctions, INodeProperties } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { idempotencyKeyOption, readIdempotencyKey } from "../../../shared/idempotency";
import { resolveScheduleAt } from "../../../shared/schedule";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import {
  captionField,
  captionsField,
  mediaItemsField,
  networksField,
  readCaptions,
  readMediaItems,
} from "./content";
import { postIdField, postPath } from "./fields";
import { splitNetworks } from "./networks";
import {
  firstCommentField,
  networkOptionFields,
  pollField,
  readFirstComment,
  readNetworkOptions,
  readPoll,
  readThread,
  splitField,
  threadField,
} from "./rich";

interface UpdateFields {
  caption?: string;
  networks?: unknown;
  media?: string;
  removeMedia?: boolean;
  scheduleAt?: unknown;
  unschedule?: boolean;
  split?: string;
  firstComment?: string;
  removeFirstComment?: boolean;
  removeThread?: boolean;
  removePoll?: boolean;
  removeNetworkOptions?: boolean;
}

const removeField = (displayName: string, name: string, description: string): INodeProperties => ({
  displayName,
  name,
  type: "boolean",
  default: false,
  description,
});

/**
 * Edits a draft or a scheduled post (PATCH /posts/{id}): only the fields given change. The service
 * checks the result as it checks a new post, and refuses a post that is publishing or published (409).
 * Media Items, Thread, Poll and a network's options, when given, replace what the post had; the
 * Remove fields take them off (null in the request).
 */
export const updatePost: Operation = {
  properties: [
    {
      ...postIdField,
      description: "ID of the draft or scheduled post to change. A published post cannot be changed.",
    },
    {
      displayName: "Update Fields",
      name: "updateFields",
      type: "collection",
      placeholder: "Add Field",
      default: {},
      description: "What to change; fields left out stay as they are",
      options: [
        { ...captionField, required: false },
        {
          ...networksField,
          required: false,
          description: `${networksField.description} Replaces the post's networks.`,
        },
        {
          displayName: "Media",
          name: "media",
          type: "string",
          default: "",
          placeholder: "https://example.com/image.png",
          description:
            "New image or video: a publicly reachable URL, or the med_ ID of media uploaded with Media → Upload",
        },
        {
          displayName: "Remove Media",
          name: "removeMedia",
          type: "boolean",
          default: false,
          description: "Whether to take the media off the post (it must then have a caption)",
        },
        {
          displayName: "Schedule At",
          name: "scheduleAt",
          type: "dateTime",
          default: "",
          description:
            "New publishing time (a draft becomes scheduled): a date and time, read in the workflow's time zone when it has no offset, or an ISO 8601 time with an offset",
        },
        {
          displayName: "Unschedule",
          name: "unschedule",
          type: "boolean",
          default: false,
          description: "Whether to take a scheduled post off the schedule, making it a draft again",
        },
        splitField,
        { ...firstCommentField, description: `New first comment. ${firstCommentField.description}` },
        removeField(
          "Remove First Comment",
          "removeFirstComment",
          "Whether to take the first comment off the post",
        ),
        removeField(
          "Remove Thread",
          "removeThread",
          "Whether to take the thread's further parts off the post",
        ),
        removeField("Remove Poll", "removePoll", "Whether to take the poll off the post"),
        removeField(
          "Remove Network Options",
          "removeNetworkOptions",
          "Whether to take every network's options off the post",
        ),
      ],
    },
    captionsField,
    {
      ...mediaItemsField,
      description: `New media with alt text, replacing the post's. ${mediaItemsField.description}`,
    },
    { ...threadField, description: `New thread parts, replacing the post's. ${threadField.description}` },
    { ...pollField, description: `New poll, replacing the post's. ${pollField.description}` },
    ...networkOptionFields(false).map((field) => ({
      ...field,
      description: `${field.description}. Any network's options given replace all the options the post had.`,
    })),
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
    const path = postPath.call(this, itemIndex);
    const fields = this.getNodeParameter("updateFields", itemIndex, {}) as UpdateFields;
    const options = this.getNodeParameter("options", itemIndex, {}) as { idempotencyKey?: string };
    const idempotencyKey = readIdempotencyKey.call(this, itemIndex, "post.update", options.idempotencyKey);
    const both = (what: string, fix: string): never => {
      throw new NodeOperationError(this.getNode(), `${what} are both set`, { description: fix, itemIndex });
    };
    const body: IDataObject = {};
    if (fields.caption !== undefined) body.caption = fields.caption;
    if (fields.networks !== undefined) body.platforms = splitNetworks.call(this, fields.networks, itemIndex);
    const mediaItems = this.getNodeParameter("mediaItems", itemIndex, {}) as { item?: unknown[] };
    const newMedia = fields.media !== undefined && fields.media.trim() !== "";
    if ((mediaItems.item ?? []).length > 0 && (newMedia || fields.removeMedia === true)) {
      both("Media Items and Media (or Remove Media)", "Give the new media in one of them, or remove it.");
    }
    if (fields.removeMedia === true) body.media = null;
    else if (newMedia) body.media = fields.media!.trim();
    if (fields.unschedule === true && fields.scheduleAt !== undefined && fields.scheduleAt !== "") {
      both("Schedule At and Unschedule", "Give a new time, or take the post off the schedule, not both.");
    }
    if (fields.unschedule === true) body.schedule_at = null;
    else if (fields.scheduleAt !== undefined && fields.scheduleAt !== "") {
      const result = resolveScheduleAt(fields.scheduleAt, this.getTimezone());
      if (!result.ok) {
        throw new NodeOperationError(this.getNode(), `Schedule At is invalid: ${result.reason}`, {
          itemIndex,
        });
      }
      body.schedule_at = result.at;
    }
    const captions = readCaptions.call(this, itemIndex);
    if (captions) body.captions = captions;
    if (fields.split !== undefined) body.split = fields.split;
    const firstComment = readFirstComment.call(this, itemIndex, fields.firstComment ?? "");
    if (firstComment !== undefined && fields.removeFirstComment === true) {
      both("First Comment and Remove First Comment", "Give a new first comment, or remove it, not both.");
    }
    if (fields.removeFirstComment === true) body.first_comment = null;
    else if (firstComment !== undefined) body.first_comment = firstComment;
    const thread = readThread.call(this, itemIndex);
    if (thread && fields.removeThread === true) {
      both("Thread and Remove Thread", "Give new thread parts, or remove the thread, not both.");
    }
    if (fields.removeThread === true) body.thread = null;
    else if (thread) body.thread = thread;
    const poll = readPoll.call(this, itemIndex);
    if (poll && fields.removePoll === true)
      both("Poll and Remove Poll", "Give a new poll, or remove it, not both.");
    if (fields.removePoll === true) body.poll = null;
    else if (poll) body.poll = poll;
    const networkOptions = readNetworkOptions.call(this, itemIndex);
    if (networkOptions && fields.removeNetworkOptions === true) {
      both("A network's options and Remove Network Options", "Give new options, or remove them, not both.");
    }
    if (fields.removeNetworkOptions === true) body.options = null;
    else if (networkOptions) body.options = networkOptions;
    // Uploads last: a field in error above stops the update before any file is sent.
    if ((mediaItems.item ?? []).length > 0) {
      body.media = await readMediaItems.call(this, itemIndex, idempotencyKey, mediaItems);
    }
    if (Object.keys(body).length === 0) {
      throw new NodeOperationError(this.getNode(), "Nothing to update", {
        description:
          "Add a field under Update Fields, a Text per Network, Media Items, Thread, Poll or a network's options.",
        itemIndex,
      });
    }
    return await apiRequest.call(this, { method: "PATCH", path, body, idempotencyKey, itemIndex });
  },
};
