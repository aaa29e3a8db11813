import type { AccountSession, PublishedPost, TargetMetrics } from "@socialpub/core";
import { type XApiConfig, xCall } from "./api.ts";

/*
 * A post's figures from X's post lookup (GET /2/tweets?ids=…&post.fields=public_metrics), which takes
 * up to 100 ids at once. The service reads due figures in parallel; reads of one account that start
 * together are sent as one lookup, so twenty due posts cost one request, not twenty (X bills per read).
 *
 * public_metrics is what every token may read: impression_count as reach, like_count as likes,
 * reply_count as comments, repost_count and quote_count as shares. non_public_metrics and
 * organic_metrics (the author's own view, 30 days) add nothing the contract's four figures need.
 */

const MAX_IDS = 100;

type Figures = Partial<TargetMetrics>;

interface Pending {
  id: string;
  resolve: (figures: Figures) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal;
}

interface PostAnswer {
  data?: { id?: unknown; public_metrics?: Record<string, unknown> }[];
}

/** A post's figures, as the adapter's readMetrics takes them. */
export type XMetricsReader = (
  account: AccountSession,
  post: PublishedPost,
  signal: AbortSignal,
) => Promise<Figures>;

/**
 * The figures reader of one adapter, as the other networks' readers a function: it batches the reads
 * that are waiting for the same account into one lookup.
 */
export function xMetricsReader(api: XApiConfig): XMetricsReader {
  const waiting = new Map<string, Pending[]>();

  async function send(token: string, queue: Pending[]): Promise<void> {
    for (let start = 0; start < queue.length; start += MAX_IDS) {
      const batch = queue.slice(start, start + MAX_IDS);
      const ids = [...new Set(batch.map((p) => p.id))];
      const signal = AbortSignal.any(batch.map((p) => p.signal));
      try {
        const path = `/2/tweets?ids=${ids.join(",")}&post.fields=public_metrics`;
        const answer = (await xCall(api, token, "GET", path, null, signal, true)) as PostAnswer;
        const byId = new Map((answer?.data ?? []).map((post) => [String(post.id), post.public_metrics]));
        // A post X no longer shows (deleted, protected) is answered in `errors`: its figures stay.
        for (const p of batch) p.resolve(figuresOf(byId.get(p.id)));
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
  }

  return (account, post, signal) => {
    // The service refreshes an ending token before a read, as before a publish.
    const token = String(account.credentials.access_token ?? "");
    return new Promise((resolve, reject) => {
      let queue = waiting.get(token);
      if (!queue) {
        const started: Pending[] = [];
        queue = started;
        waiting.set(token, started);
        // Reads started in the same turn of the event loop join this lookup.
        setImmediate(() => {
          waiting.delete(token);
          void send(token, started);
        });
      }
      queue.push({ id: post.id, resolve, reject, signal });
    });
  };
}

function figuresOf(metrics: Record<string, unknown> | undefined): Figures {
  if (!metrics) return {};
  const count = (name: string) => {
    const value = metrics[name];
    return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
  };
  return {
    reach: count("impression_count"),
    likes: count("like_count"),
    comments: count("reply_count"),
    shares: count("repost_count") + count("quote_count"),
  };
}
