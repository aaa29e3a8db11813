import type { IDataObject, IHookFunctions } from "n8n-workflow";
import { apiError, apiRequest, sendRequest } from "../shared/transport";
import { sameEvents } from "./events";

/** What the trigger keeps in the workflow's static data: the subscription and its signing secret. */
export interface SubscriptionState extends IDataObject {
  webhookId?: string;
  webhookSecret?: string;
}

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  status: string;
  secret?: string;
}

function state(this: IHookFunctions): SubscriptionState {
  return this.getWorkflowStaticData("node") as SubscriptionState;
}

function forget(this: IHookFunctions): void {
  const data = state.call(this);
  delete data.webhookId;
  delete data.webhookSecret;
}

function webhookPath(id: string): string {
  return `/webhooks/${encodeURIComponent(id)}`;
}

/** Deletes a subscription; one that is already gone counts as deleted. */
async function remove(this: IHookFunctions, id: string): Promise<void> {
  const response = await sendRequest.call(this, { method: "DELETE", path: webhookPath(id) });
  if (response.status === 404 || (response.status >= 200 && response.status < 300)) return;
  throw apiError.call(this, response);
}

function wanted(this: IHookFunctions): { url: string; events: string[] } {
  return {
    url: this.getNodeWebhookUrl("default") ?? "",
    events: this.getNodeParameter("events", []) as string[],
  };
}

/**
 * True when the stored subscription still exists with this webhook URL, these events, enabled, and its
 * secret is known. Anything else is cleaned up so that `create` starts afresh: a 404 (deleted on the
 * service), a different URL or event list (the workflow changed), or a disabled endpoint. n8n asks only
 * when the workflow is published, so a subscription deleted or disabled later stays so until then: the
 * log says what was found, at warning level when the service had removed or disabled it.
 */
export async function subscriptionExists(this: IHookFunctions): Promise<boolean> {
  const { webhookId, webhookSecret } = state.call(this);
  if (typeof webhookId !== "string" || typeof webhookSecret !== "string") return false;
  const response = await sendRequest.call(this, { method: "GET", path: webhookPath(webhookId) });
  if (response.status === 404) {
    this.logger.warn(
      `Social Publish Trigger: webhook endpoint ${webhookId} no longer exists on the service (it was deleted there); subscribing again`,
    );
    forget.call(this);
    return false;
  }
  if (response.status !== 200) throw apiError.call(this, response);
  const endpoint = response.body as Endpoint;
  const { url, events } = wanted.call(this);
  if (endpoint.url === url && sameEvents(endpoint.events, events) && endpoint.status === "enabled")
    return true;
  if (endpoint.status !== "enabled") {
    this.logger.warn(
      `Social Publish Trigger: webhook endpoint ${webhookId} is ${endpoint.status} on the service, so no event reached this workflow; replacing it`,
    );
  } else {
    this.logger.info(
      `Social Publish Trigger: webhook endpoint ${webhookId} has another URL or other events than the node; replacing it`,
    );
  }
  await remove.call(this, webhookId);
  forget.call(this);
  return false;
}

/**
 * Subscribes this trigger's URL to the selected events and keeps the id and secret. Subscriptions left
 * at the same URL by an earlier activation are removed first: their secret is lost, so their deliveries
 * could never be verified.
 */
export async function createSubscription(this: IHookFunctions): Promise<boolean> {
  const { url, events } = wanted.call(this);
  const existing = (await apiRequest.call(this, { method: "GET", path: "/webhooks" })) as {
    data?: Endpoint[];
  };
  for (const endpoint of existing.data ?? []) {
    if (endpoint.url === url) await remove.call(this, endpoint.id);
  }
  const created = (await apiRequest.call(this, {
    method: "POST",
    path: "/webhooks",
    body: { url, events },
  })) as unknown as Endpoint;
  const data = state.call(this);
  data.webhookId = created.id;
  data.webhookSecret = created.secret;
  this.logger.info(
    `Social Publish Trigger: subscribed ${url} to ${events.join(", ")} as webhook endpoint ${created.id}`,
  );
  return true;
}

/** Removes the subscription on deactivation. */
export async function deleteSubscription(this: IHookFunctions): Promise<boolean> {
  const { webhookId } = state.call(this);
  if (typeof webhookId === "string") await remove.call(this, webhookId);
  forget.call(this);
  return true;
}
