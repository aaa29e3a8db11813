import { setTimeout as delay } from "node:timers/promises";
import { NetworkError, type PublishedPost, type PublishInput } from "@socialpub/core";
import { type MetaGraphConfig, metaCall } from "./meta-graph.ts";
import { findMetaPost } from "./meta-recent.ts";

/*
 * Meta's two-step publish, as Threads and Instagram document it: make a media container
 * (POST /{user}/threads or /{user}/media), wait until its status is FINISHED, publish it
 * (POST /{user}/threads_publish or /media_publish with creation_id), then read the post's permalink.
 *
 * The container's id is saved on the target (post.saveStep) as soon as it exists, so the next attempt
 * (a retry, or the first after a restart) resumes from it. The container is what says whether the
 * post went out: PUBLISHED → it did (the post is found among the account's recent posts and answered,
 * never made again); FINISHED or IN_PROGRESS → not yet (it is published now); EXPIRED (after 24 hours)
 * → nothing went out, a new container is made; ERROR → Meta could not use the media: refused.
 *
 * An attempt cut off before it saved a container (the server stopped while the container was made)
 * leaves no step to resume: the service then asks the adapter's findPublished, which reads the
 * account's recent posts back (meta-recent.ts). Only a published container makes a post, and none is
 * published before its id is saved, so that read finds nothing and the post is sent again; it is read
 * all the same, because a post is never sent again on reasoning alone where the network can be asked.
 *
 * A carousel is one more step before the container: each item is a container of its own
 * (is_carousel_item=true), waited on until FINISHED, and the carousel's container names them in
 * `children`. Items publish nothing alone, so an attempt cut off among them simply makes them again;
 * the carousel's container is saved and resumed from as any other.
 */

/** What a container flow publishes: a post, or one part of a thread (its own step beside the thread's). */
export type ContainerPost = Pick<PublishInput, "text" | "step" | "saveStep" | "signal">;

export interface ContainerFlow {
  graph: MetaGraphConfig;
  token: string;
  /** The account's id on the network ({threads-user-id}, {ig-user-id}). */
  userId: string;
  /** Paths under the API's base URL. */
  createPath: string;
  publishPath: string;
  /** The account's recent posts, to find one a lost answer left unknown. */
  listPath: string;
  /** The container field holding its state: Threads `status`, Instagram `status_code`. */
  statusField: string;
  /** The post field holding its text: Threads `text`, Instagram `caption`. */
  textField: string;
  /** What the container is made of (media_type, image_url, text or caption, …). */
  params: Record<string, string>;
  /** A carousel's items, each what its container is made of; the container then names them in `children`. */
  items?: readonly Record<string, string>[];
  /** How long this attempt waits for a container Meta is still processing before it lets go. */
  waitMs?: number;
}

/** A container still processing after the attempt's wait is looked at again this much later. */
const RETRY_PROCESSING_MS = 30_000;
/** Meta asks to poll a container about once a minute at most for video; images are ready fast. */
const POLL_DELAYS_MS = [0, 1_000, 2_000, 4_000, 8_000, 15_000];
/** How far before the container was made a found post may be dated (clocks apart). */
export const CLOCK_SLACK_MS = 5 * 60_000;

export async function publishThroughContainer(
  flow: ContainerFlow,
  post: ContainerPost,
): Promise<PublishedPost> {
  const { graph } = flow;
  const saved = post.step;
  let container = typeof saved?.container === "string" ? saved.container : null;
  let madeAt = typeof saved?.made_at === "number" ? saved.made_at : graph.now();
  if (container) {
    const state = await containerState(flow, container, post.signal);
    if (state.status === "PUBLISHED") return foundOrFail(flow, post, madeAt);
    if (state.status === "ERROR") throw unusable(flow, state.message);
    // EXPIRED: it was never published; a new one is made below.
    if (state.status === "EXPIRED") container = null;
  }
  if (!container) {
    madeAt = graph.now();
    const params = flow.items
      ? { ...flow.params, children: await makeItems(flow, post.signal) }
      : flow.params;
    // A container publishes nothing: one whose answer was lost is simply made again.
    const made = await metaCall(graph, flow.token, "POST", flow.createPath, params, post.signal, true);
    if (typeof made.id !== "string") {
      throw new NetworkError(graph.network, "retry", `${graph.name} answered the container without its id.`);
    }
    container = made.id;
    await post.saveStep({ container, made_at: madeAt });
  }
  const ready = await waitUntilFinished(flow, container, post.signal);
  if (ready === "PUBLISHED") return foundOrFail(flow, post, madeAt);
  const published = await metaCall(
    graph,
    flow.token,
    "POST",
    flow.publishPath,
    { creation_id: container },
    post.signal,
  );
  if (typeof published.id !== "string") {
    // Published or not, the container says so on the next attempt, which resumes from it.
    throw new NetworkError(graph.network, "unknown", `${graph.name} answered the publish without its id.`);
  }
  const read = await metaCall(
    graph,
    flow.token,
    "GET",
    `/${published.id}`,
    { fields: "permalink" },
    post.signal,
  );
  return { id: published.id, permalink: typeof read.permalink === "string" ? read.permalink : "" };
}

/** Makes a carousel's item containers and waits until each is FINISHED: their ids, comma-separated. */
async function makeItems(flow: ContainerFlow, signal: AbortSignal): Promise<string> {
  const ids: string[] = [];
  for (const item of flow.items ?? []) {
    const made = await metaCall(
      flow.graph,
      flow.token,
      "POST",
      flow.createPath,
      { ...item, is_carousel_item: "true" },
      signal,
      true,
    );
    if (typeof made.id !== "string") {
      throw new NetworkError(
        flow.graph.network,
        "retry",
        `${flow.graph.name} answered a carousel item without its id.`,
      );
    }
    ids.push(made.id);
  }
  // Meta takes a carousel only of finished items; they process side by side, so they are waited on after.
  for (const id of ids) {
    const state = await waitUntilFinished(flow, id, signal);
    if (state !== "FINISHED") throw unusable(flow, `a carousel item is ${state}`);
  }
  return ids.join(",");
}

async function containerState(
  flow: ContainerFlow,
  container: string,
  signal: AbortSignal,
): Promise<{ status: string; message: string }> {
  const answer = await metaCall(
    flow.graph,
    flow.token,
    "GET",
    `/${container}`,
    { fields: `id,${flow.statusField},error_message` },
    signal,
  );
  const status = String(answer[flow.statusField] ?? "");
  return { status, message: typeof answer.error_message === "string" ? answer.error_message : status };
}

/** Polls the container until it is FINISHED (or PUBLISHED); gives the attempt up while Meta still works. */
async function waitUntilFinished(
  flow: ContainerFlow,
  container: string,
  signal: AbortSignal,
): Promise<string> {
  const until = flow.graph.now() + (flow.waitMs ?? 40_000);
  for (let i = 0; ; i++) {
    const state = await containerState(flow, container, signal);
    if (state.status === "FINISHED" || state.status === "PUBLISHED") return state.status;
    if (state.status === "ERROR") throw unusable(flow, state.message);
    if (state.status === "EXPIRED") {
      throw new NetworkError(
        flow.graph.network,
        "retry",
        `${flow.graph.name}'s media container expired before it was published; a new one is made.`,
      );
    }
    const wait = POLL_DELAYS_MS[Math.min(i + 1, POLL_DELAYS_MS.length - 1)]!;
    if (flow.graph.now() + wait > until) {
      throw new NetworkError(
        flow.graph.network,
        "retry",
        `${flow.graph.name} is still processing the post's media; it is looked at again shortly.`,
        { retryAfterMs: RETRY_PROCESSING_MS },
      );
    }
    try {
      await delay(wait, undefined, { signal });
    } catch {
      // Stopped while waiting (shutdown, the attempt's time limit): nothing was published.
      throw new NetworkError(
        flow.graph.network,
        "retry",
        `${flow.graph.name}: stopped while the media was processed.`,
      );
    }
  }
}

/** The post a PUBLISHED container became, among the account's recent posts (same text, made since). */
async function foundOrFail(flow: ContainerFlow, post: ContainerPost, madeAt: number): Promise<PublishedPost> {
  const find = { text: post.text, since: madeAt - CLOCK_SLACK_MS };
  const found = await findMetaPost(flow.graph, flow, flow.token, find, post.signal);
  if (found) return found;
  throw new NetworkError(
    flow.graph.network,
    "refused",
    `${flow.graph.name} says the post was published, but it is not among the account's recent posts; check the account (it was not sent again).`,
  );
}

function unusable(flow: ContainerFlow, message: string): NetworkError {
  return new NetworkError(
    flow.graph.network,
    "refused",
    `${flow.graph.name} could not make the post from its media (${flow.graph.name} said: ${message}).`,
  );
}
