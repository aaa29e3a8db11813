import type { IDataObject, IDisplayOptions, IExecuteFunctions } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";
import { idempotencyKeyOption, readIdempotencyKey } from "../../../shared/idempotency";
import { apiError, sendRequest } from "../../../shared/transport";
import type { Operation } from "../../operation";
import { readMedia } from "./content";
import { newPostFields, readNewPost } from "./newPost";
import { type PostLike, publishDraft, publishOutcome } from "./outcome";
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

export const createPost: Operation = {
  properties: [
    ...newPostFields(),
    {
      displayName: "Options",
      name: "options",
      type: "collection",
      placeholder: "Add Option",
      default: {},
      options: [
        idempotencyKeyOption,
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
    const idempotencyKey = readIdempotencyKey.call(this, itemIndex, "post.create", options.idempotencyKey);
    const { body, publish } = readNewPost.call(this, itemIndex);
    const waitMs = Math.max(1, options.waitTimeout ?? DEFAULT_WAIT_MINUTES) * 60_000;
    const wait = publish === "schedule" && options.waitUntilPublished === true;
    if (wait && (body.schedule_at as number) - Date.now() > waitMs) {
      throw new NodeOperationError(this.getNode(), "The post is scheduled further ahead than Wait Timeout", {
        description:
          "Nothing was created. Raise Wait Timeout (Minutes), schedule sooner, or turn off Wait Until Published.",
        itemIndex,
      });
    }

    const media = await readMedia.call(this, itemIndex, idempotencyKey);
    if (media !== undefined) body.media = media;

    const response = await sendRequest.call(this, {
      method: "POST",
      path: "/posts",
      body,
      idempotencyKey,
      itemIndex,
    });
    if (response.status < 200 || response.status >= 300) throw apiError.call(this, response, itemIndex);
    const post = response.body as PostLike;
    if (publish === "draft") return post;
    if (publish === "schedule") {
      return wait ? await waitForPublication.call(this, post, waitMs, itemIndex) : post;
    }
    // A replayed draft is this item's earlier attempt, which published nowhere, met again by a retry
    // (Executions → Retry, Retry On Fail) — perhaps after its cause was fixed: publish the draft again
    // rather than repeat the old failure.
    if (post.status === "draft" && response.headers["idempotent-replayed"] === "true") {
      return await publishDraft.call(this, post.id, itemIndex);
    }
    return await publishOutcome.call(this, post, itemIndex, response.headers["x-request-id"]);
  },
};
