import type { IDataObject, IExecuteFunctions } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { idempotencyKeyOption, readIdempotencyKey } from "../../../shared/idempotency";
import { resolveScheduleAt } from "../../../shared/schedule";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import { captionField, captionsField, networksField, readCaptions } from "./content";
import { postIdField, postPath } from "./fields";
import { splitNetworks } from "./networks";

interface UpdateFields {
  caption?: string;
  networks?: unknown;
  media?: string;
  removeMedia?: boolean;
  scheduleAt?: unknown;
  unschedule?: boolean;
}

/**
 * Edits a draft or a scheduled post (PATCH /posts/{id}): only the fields given change. The service
 * checks the result as it checks a new post, and refuses a post that is publishing or published (409).
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
      ],
    },
    captionsField,
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
    const body: IDataObject = {};
    if (fields.caption !== undefined) body.caption = fields.caption;
    if (fields.networks !== undefined) body.platforms = splitNetworks.call(this, fields.networks, itemIndex);
    if (fields.removeMedia === true) body.media = null;
    else if (fields.media !== undefined && fields.media.trim() !== "") body.media = fields.media.trim();
    if (fields.unschedule === true && fields.scheduleAt !== undefined && fields.scheduleAt !== "") {
      throw new NodeOperationError(this.getNode(), "Schedule At and Unschedule are both set", {
        description: "Give a new time, or take the post off the schedule, not both.",
        itemIndex,
      });
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
    if (Object.keys(body).length === 0) {
      throw new NodeOperationError(this.getNode(), "Nothing to update", {
        description: "Add a field under Update Fields, or a Text per Network.",
        itemIndex,
      });
    }
    return await apiRequest.call(this, {
      method: "PATCH",
      path,
      body,
      idempotencyKey: readIdempotencyKey.call(this, itemIndex, "post.update", options.idempotencyKey),
      itemIndex,
    });
  },
};
