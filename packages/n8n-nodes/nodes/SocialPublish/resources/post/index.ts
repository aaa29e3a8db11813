import type { INodeProperties } from "n8n-workflow";
import { type Operation, resourceProperties } from "../../operation";
import { createPost } from "./create";
import { deletePost } from "./delete";
import { getPost } from "./get";
import { getManyPosts } from "./getAll";
import { getPostTargets } from "./getTargets";
import { publishPost } from "./publish";
import { retryPost } from "./retry";
import { schedulePost } from "./schedule";
import { updatePost } from "./update";
import { validatePost } from "./validate";

export const postOperations: Record<string, Operation> = {
  create: createPost,
  delete: deletePost,
  get: getPost,
  getAll: getManyPosts,
  getTargets: getPostTargets,
  publish: publishPost,
  retry: retryPost,
  schedule: schedulePost,
  update: updatePost,
  validate: validatePost,
};

const operationSelector: INodeProperties = {
  displayName: "Operation",
  name: "operation",
  type: "options",
  noDataExpression: true,
  options: [
    {
      name: "Create",
      value: "create",
      action: "Create a post",
      description: "Publish a post now, schedule it, or keep it as a draft, on one or more networks",
    },
    {
      name: "Delete",
      value: "delete",
      action: "Delete a post",
      description: "Delete a draft, cancel a scheduled post, or remove a published post's record",
    },
    {
      name: "Get",
      value: "get",
      action: "Get a post",
      description: "Get a post with its status and metrics",
    },
    { name: "Get Many", value: "getAll", action: "Get many posts", description: "List posts, newest first" },
    {
      name: "Get Targets",
      value: "getTargets",
      action: "Get the per network results of a post",
      description: "Get each network's status, adapted text, permalink, error and metrics",
    },
    {
      name: "Publish",
      value: "publish",
      action: "Publish a draft now",
      description: "Publish a draft now, or a post that went back to draft when every network refused it",
    },
    {
      name: "Retry",
      value: "retry",
      action: "Retry the networks that failed",
      description: "Send a post again to the networks that failed, leaving those that published as they are",
    },
    {
      name: "Schedule",
      value: "schedule",
      action: "Schedule a post at the next best slot",
      description: "Queue a post at the next best slot for its networks, or at a given time",
    },
    {
      name: "Update",
      value: "update",
      action: "Update a post",
      description: "Change the text, networks, media or time of a draft or scheduled post",
    },
    {
      name: "Validate",
      value: "validate",
      action: "Validate a post",
      description: "Check a post without publishing or storing it, and see what each network would get",
    },
  ],
  default: "create",
};

export const postProperties: INodeProperties[] = resourceProperties(
  "post",
  operationSelector,
  postOperations,
);
