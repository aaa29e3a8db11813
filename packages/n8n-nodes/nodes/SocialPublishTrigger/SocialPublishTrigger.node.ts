import type {
  IDataObject,
  IHookFunctions,
  INodeType,
  INodeTypeDescription,
  IWebhookFunctions,
  IWebhookResponseData,
} from "n8n-workflow";
import { NodeConnectionTypes } from "n8n-workflow";
import { EVENT_OPTIONS } from "./events";
import { receiveEvent } from "./receive";
import { createSubscription, deleteSubscription, subscriptionExists } from "./subscription";

export class SocialPublishTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: "Social Publish Trigger",
    name: "socialPublishTrigger",
    icon: { light: "file:../../icons/socialpub.svg", dark: "file:../../icons/socialpub.dark.svg" },
    group: ["trigger"],
    version: 1,
    subtitle: '={{$parameter["events"].join(", ")}}',
    description: "Starts the workflow when the social publishing service sends an event",
    defaults: { name: "Social Publish Trigger" },
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: "socialPublishApi", required: true }],
    webhooks: [
      {
        name: "default",
        httpMethod: "POST",
        responseMode: "onReceived",
        path: "webhook",
      },
    ],
    properties: [
      {
        displayName:
          "n8n subscribes to the service when the workflow is published and checks the subscription only then. If the webhook endpoint is deleted or disabled on the service later, no event arrives: unpublish and publish the workflow again to subscribe anew (n8n's log says what it found).",
        name: "subscriptionNotice",
        type: "notice",
        default: "",
      },
      {
        displayName: "Events",
        name: "events",
        type: "multiOptions",
        options: EVENT_OPTIONS,
        default: ["post.published"],
        required: true,
        description: "Events that start the workflow",
      },
    ],
  };

  webhookMethods = {
    default: {
      async checkExists(this: IHookFunctions): Promise<boolean> {
        return await subscriptionExists.call(this);
      },
      async create(this: IHookFunctions): Promise<boolean> {
        return await createSubscription.call(this);
      },
      async delete(this: IHookFunctions): Promise<boolean> {
        return await deleteSubscription.call(this);
      },
    },
  };

  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    const outcome = receiveEvent.call(this, Math.floor(Date.now() / 1000));
    if (outcome.kind === "start") {
      return { workflowData: [this.helpers.returnJsonArray([outcome.event as IDataObject])] };
    }
    const response = this.getResponseObject();
    response.status(outcome.status).json(outcome.body);
    return { noWebhookResponse: true };
  }
}
