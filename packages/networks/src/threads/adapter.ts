import { NETWORK_RULES, type NetworkAdapter } from "@socialpub/core";
import type { MetaGraphConfig } from "../common/meta-graph.ts";
import { readMetaInsights } from "../common/meta-insights.ts";
import { metaMe, metaOAuth } from "../common/meta-oauth.ts";
import { findLostMetaPost } from "../common/meta-recent.ts";
import { baseUrl, connectThroughOAuth, type OAuthAdapterOptions } from "../common/oauth-adapter.ts";
import { THREADS_DEFAULT_SCOPES, threadsDescription } from "./describe.ts";
import { publishThreads, THREADS_MAX_MEDIA_BYTES, threadsListing } from "./publish.ts";

export { THREADS_DEFAULT_SCOPES } from "./describe.ts";

export const THREADS_API_URL = "https://graph.threads.net";
export const THREADS_AUTHORIZE_URL = "https://threads.net/oauth/authorize";
/** Version of the Threads API the adapter speaks. */
export const THREADS_API_VERSION = "v1.0";
/** Lifetime insights of a Threads post: views as reach, likes, replies as comments, reposts and quotes as shares. */
const THREADS_METRICS = ["views", "likes", "replies", "reposts", "quotes"] as const;

/** `apiUrl` is the API's host (https://graph.threads.net); the client is the Threads app from Meta's console. */
export interface ThreadsAdapterOptions extends OAuthAdapterOptions {
  /** The authorize page (https://threads.net/oauth/authorize; SOCIALPUB_THREADS_AUTH_URL). */
  authorizeUrl?: string;
  /** How long one attempt waits for a media container Threads is still processing (default 40 s). */
  containerWaitMs?: number;
}

/**
 * Threads through its Graph API with the user's long-lived token: text, text with an image or video
 * that Threads fetches from the post's public media URL (with its alt text), or a carousel of 2–20,
 * published in two steps (container, then threads_publish) whose progress is kept on the target so a
 * restart never posts twice. An attempt cut off before its container was saved is looked for among the
 * account's recent threads (findPublished, common/meta-recent.ts) before it is sent again. A thread's
 * later parts are replies (`reply_to_id`), each to the part before, published part by part from the
 * saved step (common/meta-thread.ts); the first comment is a reply to the first part; a poll goes on a
 * text post (`poll_attachment`).
 */
export function threadsAdapter(options: ThreadsAdapterOptions = {}): NetworkAdapter {
  const host = baseUrl(options.apiUrl, THREADS_API_URL);
  const graph: MetaGraphConfig = {
    network: "threads",
    name: "Threads",
    baseUrl: `${host}/${THREADS_API_VERSION}`,
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
  };
  return {
    id: "threads",
    rule: NETWORK_RULES.threads,
    pacing: threadsDescription.pacing,
    maxMediaBytes: THREADS_MAX_MEDIA_BYTES,
    connect: connectThroughOAuth("threads", "Threads", "Threads' own page"),
    oauth: metaOAuth({
      graph,
      authorizeUrl: options.authorizeUrl ?? THREADS_AUTHORIZE_URL,
      tokenUrl: `${host}/oauth/access_token`,
      longLivedUrl: `${host}/access_token`,
      longLivedGrant: "th_exchange_token",
      clientId: options.clientId ?? "",
      clientSecret: options.clientSecret ?? "",
      scopes: options.scopes ?? THREADS_DEFAULT_SCOPES,
      missingSettings: options.missingSettings ?? [],
      async me(token, signal) {
        const me = await metaMe(graph, token, "id,username", signal);
        // Followers need threads_manage_insights, which the server does not ask for: 0.
        return { id: String(me.id), username: String(me.username), followers: 0 };
      },
    }),
    publish: (account, post) => publishThreads(graph, account, post, options.containerWaitMs),
    findPublished: (account, lost, signal) => findLostMetaPost(graph, threadsListing, account, lost, signal),
    async readMetrics(account, post, signal) {
      const m = await readMetaInsights(graph, account, post, THREADS_METRICS, signal);
      return { reach: m.views, likes: m.likes, comments: m.replies, shares: m.reposts! + m.quotes! };
    },
  };
}
