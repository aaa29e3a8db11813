import type { IDataObject, IDisplayOptions, IExecuteFunctions } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import {
  checkIdempotencyKey,
  defaultIdempotencyKey,
  derivedIdempotencyKey,
} from "../../../shared/idempotency";
import { resolveScheduleAt } from "../../../shared/schedule";
import { apiRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import { readNetworks } from "./networks";
import { waitForPublication } from "./waitForPublication";

interface CreateOptions {
  idempotencyKey?: string;
  waitUntilPublished?: boolean;
  waitTimeout?: number;
}

const DEFAULT_WAIT_MINUTES = 10;

// Waiting only applies to a scheduled post: a post published now is already published when it is
// returned. `/publish` names the node's Publish field from inside the Options collection.
const SHOWN_WHEN_SCHEDULED: IDisplayOptions = { show: { "/publish": ["schedule"] } };

/** The instant a scheduled post is due, in Unix milliseconds. */
function readScheduleAt(this: IExecuteFunctions, itemIndex: number): number {
  const value = this.getNodeParameter("scheduleAt", itemIndex, "") as unknown;
  const result = resolveScheduleAt(value, this.getTimezone());
  if (!result.ok) {
    throw new NodeOperationError(this.getNode(), `Schedule At is invalid: ${result.reason}`, { itemIndex });
  }
  return result.at;
}

/** Uploads the item's binary file through POST /media and answers the media id. */
async function uploadBinary(
  this: IExecuteFunctions,
  itemIndex: number,
  idempotencyKey: string,
): Promise<string> {
  const property = this.getNodeParameter("binaryPropertyName", itemIndex, "data") as string;
  const binary = this.helpers.assertBinaryData(itemIndex, property);
  const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, property);
  const media = (await apiRequest.call(this, {
    method: "POST",
    path: "/media",
    body: bytes,
    contentType: binary.mimeType,
    idempotencyKey: derivedIdempotencyKey(idempotencyKey, "media"),
    itemIndex,
  })) as { id: string };
  return media.id;
}

function readIdempotencyKey(this: IExecuteFunctions, itemIndex: number, options: CreateOptions): string {
  const given = (options.idempotencyKey ?? "").trim();
  if (given === "") return defaultIdempotencyKey.call(this, itemIndex, "post.create");
  const problem = checkIdempotencyKey(given);
  if (problem) {
    throw new NodeOperationError(this.getNode(), `Idempotency Key ${problem}`, { itemIndex });
  }
  return given;
}

export const createPost: Operation = {
  properties: [
    {
      displayName: "Caption",
      name: "caption",
      type: "string",
      typeOptions: { rows: 4 },
      default: "",
      description:
        "Text of the post. Each network gets a version shortened to its own limit (280 characters on X, for example).",
    },
    {
      displayName: "Network Names or IDs",
      name: "networks",
      type: "multiOptions",
      typeOptions: { loadOptionsMethod: "getConnectedNetworks" },
      default: [],
      required: true,
      description:
        'Networks to publish to, from your connected accounts. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
    },
    {
      displayName: "Publish",
      name: "publish",
      type: "options",
      options: [
        { name: "Now", value: "now", description: "Publish as soon as the node runs" },
        { name: "At a Scheduled Time", value: "schedule", description: "Queue the post for a date and time" },
      ],
      default: "now",
    },
    {
      displayName: "Schedule At",
      name: "scheduleAt",
      type: "dateTime",
      default: "",
      required: true,
      description:
        "When to publish. A time without a zone offset is read in the workflow's time zone. Must not be in the past.",
      displayOptions: { show: { publish: ["schedule"] } },
    },
    {
      displayName: "Media",
      name: "mediaSource",
      type: "options",
      options: [
        { name: "None", value: "none" },
        { name: "URL", value: "url", description: "A publicly reachable image or video" },
        {
          name: "Binary File",
          value: "binary",
          description: "A file from the input item, uploaded to the service first",
        },
      ],
      default: "none",
      description: "Instagram, Pinterest, TikTok and YouTube need media",
    },
    {
      displayName: "Media URL",
      name: "mediaUrl",
      type: "string",
      default: "",
      required: true,
      placeholder: "https://example.com/image.png",
      displayOptions: { show: { mediaSource: ["url"] } },
    },
    {
      displayName: "Input Binary Field",
      name: "binaryPropertyName",
      type: "string",
      default: "data",
      required: true,
      hint: "The name of the input binary field containing the file to be uploaded",
      displayOptions: { show: { mediaSource: ["binary"] } },
    },
    {
      displayName: "Options",
      name: "options",
      type: "collection",
      placeholder: "Add Option",
      default: {},
      options: [
        {
          displayName: "Idempotency Key",
          name: "idempotencyKey",
          type: "string",
          default: "",
          description:
            "Sent as the Idempotency-Key header. Leave empty to use a key derived from the execution and the item, so retrying the node or the execution never posts twice.",
        },
        {
          displayName: "Wait Until Published",
          name: "waitUntilPublished",
          type: "boolean",
          default: false,
          description:
            "Whether to hold the workflow until a scheduled post has published, then output the published post",
          displayOptions: SHOWN_WHEN_SCHEDULED,
        },
        {
          displayName: "Wait Timeout (Minutes)",
          name: "waitTimeout",
          type: "number",
          typeOptions: { minValue: 1 },
          default: DEFAULT_WAIT_MINUTES,
          description:
            "How long Wait Until Published may wait. A post scheduled further ahead than this is refused before it is created.",
          displayOptions: SHOWN_WHEN_SCHEDULED,
        },
      ],
    },
  ],

  async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
    const options = this.getNodeParameter("options", itemIndex, {}) as CreateOptions;
    const idempotencyKey = readIdempotencyKey.call(this, itemIndex, options);
    const body: IDataObject = {
      caption: this.getNodeParameter("caption", itemIndex, "") as string,
      platforms: readNetworks.call(this, itemIndex),
    };

    const scheduled = this.getNodeParameter("publish", itemIndex, "now") === "schedule";
    const waitMs = Math.max(1, options.waitTimeout ?? DEFAULT_WAIT_MINUTES) * 60_000;
    const wait = scheduled && options.waitUntilPublished === true;
    if (scheduled) {
      body.schedule_at = readScheduleAt.call(this, itemIndex);
      if (wait && (body.schedule_at as number) - Date.now() > waitMs) {
        throw new NodeOperationError(
          this.getNode(),
          "The post is scheduled further ahead than Wait Timeout",
          {
            description:
              "Nothing was created. Raise Wait Timeout (Minutes), schedule sooner, or turn off Wait Until Published.",
            itemIndex,
          },
        );
      }
    }

    const mediaSource = this.getNodeParameter("mediaSource", itemIndex, "none") as string;
    if (mediaSource === "url") {
      body.media = (this.getNodeParameter("mediaUrl", itemIndex, "") as string).trim();
    } else if (mediaSource === "binary") {
      body.media = await uploadBinary.call(this, itemIndex, idempotencyKey);
    }

    const post = (await apiRequest.call(this, {
      method: "POST",
      path: "/posts",
      body,
      idempotencyKey,
      itemIndex,
    })) as { id: string; status: string; scheduled_at: number | null };
    if (!wait) return post;
    return await waitForPublication.call(this, post, waitMs, itemIndex);
  },
};
