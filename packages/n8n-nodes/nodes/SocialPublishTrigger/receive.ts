import type { IDataObject, IWebhookFunctions } from "n8n-workflow";
import { verifyWebhook } from "../shared/signature";
import type { SubscriptionState } from "./subscription";

export type Receipt =
  | { kind: "start"; event: IDataObject }
  | { kind: "reply"; status: number; body: IDataObject };

function header(headers: IDataObject, name: string): string | undefined {
  const value = headers[name];
  if (Array.isArray(value)) return typeof value[0] === "string" ? value[0] : undefined;
  return typeof value === "string" ? value : undefined;
}

/**
 * Decides what one delivery does: verify the Standard Webhooks signature over the raw body (401 and
 * nothing started when it fails), then start the workflow with the event envelope when its type is one
 * the trigger listens for. Other types are acknowledged so the service does not retry them.
 */
export function receiveEvent(this: IWebhookFunctions, nowSeconds: number): Receipt {
  const request = this.getRequestObject() as { rawBody?: Buffer };
  const headers = this.getHeaderData() as IDataObject;
  const { webhookSecret } = this.getWorkflowStaticData("node") as SubscriptionState;
  const verification = verifyWebhook(
    {
      id: header(headers, "webhook-id"),
      timestamp: header(headers, "webhook-timestamp"),
      signature: header(headers, "webhook-signature"),
      rawBody: request.rawBody,
    },
    webhookSecret,
    nowSeconds,
  );
  if (!verification.ok) {
    this.logger.warn(`Social Publish Trigger refused a delivery: ${verification.reason}`);
    return { kind: "reply", status: 401, body: { error: "Invalid webhook signature." } };
  }

  let event: IDataObject;
  try {
    event = JSON.parse((request.rawBody as Buffer).toString("utf8")) as IDataObject;
  } catch {
    return { kind: "reply", status: 400, body: { error: "The body is not JSON." } };
  }
  if (!event || typeof event !== "object" || typeof event.type !== "string") {
    return { kind: "reply", status: 400, body: { error: "The body is not an event envelope." } };
  }
  const events = this.getNodeParameter("events", []) as string[];
  if (!events.includes(event.type)) {
    return { kind: "reply", status: 200, body: { received: true, ignored: event.type } };
  }
  return { kind: "start", event };
}
