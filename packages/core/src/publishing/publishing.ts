import type { NetworkId } from "../contract/networks.ts";
import type { Credentials, NetworkAdapter, NetworkAdapters } from "../networks/adapter.ts";
import { publishKey } from "../networks/record-key.ts";
import { sandboxAdapter } from "../networks/sandbox.ts";
import type { DueTimer } from "../scheduler/due-timer.ts";
import { PUBLISH_CONCURRENCY } from "../scheduler/scheduler.ts";
import type { CredentialKeyring } from "../secrets/credential-keyring.ts";
import type { KeyMode, PostRecord } from "../store/types.ts";
import type { FollowerReads } from "./follower-refresh.ts";
import type { InFlightSweep } from "./in-flight-sweep.ts";
import type { MediaFetch } from "./media-fetch.ts";

/** How publishing behaves; every figure has the default docs/api.md states. */
export interface PublishingOptions {
  /** How long a publish-now request waits for every network's first attempt: 20 s. */
  waitMs?: number;
  /** How long one attempt may take before the service stops waiting for it: 60 s. */
  attemptTimeoutMs?: number;
  /**
   * Waits before the 2nd, 3rd, … attempt of a network that asked to be retried (a network's own
   * retry hint is honoured when it is longer); attempts stop after one more than there are delays:
   * 1, 5, 15 and 40 minutes, so 5 attempts over about an hour.
   */
  retryDelaysMs?: readonly number[];
  /** When a live post's figures are read, counted from its publication: 5 min, 1 h, 6 h, 24 h, 7 days. */
  metricsScheduleMs?: readonly number[];
  /** How long a metrics read may hold its claim before another worker may take it: 10 minutes. */
  metricsLeaseMs?: number;
  /**
   * How long an attempt may stay marked in flight before it is taken as cut off (its outcome unknown,
   * checked with the network before anything is resent): 10 minutes. Far longer than attemptTimeoutMs,
   * after which an attempt sends nothing more.
   */
  attemptLeaseMs?: number;
  /**
   * How old a live account's follower count may be before GET /accounts reads it again, in the
   * background: 6 hours.
   */
  followersMaxAgeMs?: number;
  /**
   * Scheduled posts and retries an instance publishes at once: 1,024 (PUBLISH_CONCURRENCY). A publish
   * spends nearly all its time waiting for its network, so this, not the CPU, bounds how fast a burst
   * of due posts goes out: up to concurrency ÷ the networks' answer time posts a second. Each publish in
   * flight holds a socket and a few tens of KB (docs/performance.md, "Top of the hour").
   */
  concurrency?: number;
}

export const DEFAULT_PUBLISHING: Required<PublishingOptions> = {
  waitMs: 20_000,
  attemptTimeoutMs: 60_000,
  retryDelaysMs: [60_000, 300_000, 900_000, 2_400_000],
  metricsScheduleMs: [300_000, 3_600_000, 21_600_000, 86_400_000, 604_800_000],
  metricsLeaseMs: 600_000,
  attemptLeaseMs: 600_000,
  followersMaxAgeMs: 21_600_000,
  concurrency: PUBLISH_CONCURRENCY,
};

/** The publishing options with their defaults; a concurrency that is not a whole number of at least 1 is refused. */
export function publishingOptions(given: PublishingOptions | undefined): Required<PublishingOptions> {
  const options = { ...DEFAULT_PUBLISHING, ...given };
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new TypeError(
      `publishing.concurrency must be a whole number of publishes at once, at least 1; it is ${String(options.concurrency)}.`,
    );
  }
  return options;
}

/**
 * The stable key one post is published under on one network (PublishInput.key): a TID, the same for
 * every attempt. By default it comes from the post (core's publishKey); a caller that knows what the
 * post stands for across separate runs (a GitHub release announced by the Action without a server)
 * derives it from that instead, so a network that takes the caller's key (Bluesky's record key)
 * refuses a second post from a later run too.
 */
export type PublishKeyFor = (post: Pick<PostRecord, "id" | "created_at">, platform: NetworkId) => string;

export const defaultPublishKey: PublishKeyFor = (post, platform) =>
  publishKey(post.id, post.created_at, platform);

/** What the publishing steps share, beside the store and clock every handler has. */
export interface Publishing {
  options: Required<PublishingOptions>;
  /** The adapter a post of `mode` publishes through on `platform`; undefined when there is none. */
  adapterFor(mode: KeyMode, platform: NetworkId): NetworkAdapter | undefined;
  /** The key each attempt of a post on a network is made under (default: from the post). */
  publishKey: PublishKeyFor;
  /** Seals and opens live credentials; null when the server was given no secret key. */
  keyring: CredentialKeyring | null;
  /** Wakes the worker that makes retries when one is due sooner than it knows. */
  retries: Pick<DueTimer, "notify">;
  /** Wakes the worker that reads figures. */
  metrics: Pick<DueTimer, "notify">;
  /** Wakes the sweep of ending grants when an account's grant changes its health sooner than it knows. */
  grants: Pick<DueTimer, "notify">;
  /** Fetches one hop of a media URL (media-fetch.ts). */
  mediaFetch: MediaFetch;
  /** Told when an attempt's outcome could not be written, so the attempt does not stay in flight. */
  inFlight: Pick<InFlightSweep, "leftInFlight">;
  /** Attempts still running after their publish-now request answered; close() waits for them. */
  background: Set<Promise<unknown>>;
  /** Aborted when the service closes: attempts in flight stop waiting. */
  shutdown: AbortSignal;
  /**
   * The server's address as networks and browsers reach it (SOCIALPUB_PUBLIC_URL): OAuth redirects
   * come back to it. Null when it was not given; OAuth networks then cannot connect.
   */
  publicUrl: string | null;
  /** Token refreshes under way, by account (account-credentials.ts): one at a time per account. */
  refreshes: Map<string, Promise<Credentials>>;
  /** When live accounts' followers were last read, and which reads are under way (follower-refresh.ts). */
  followers: FollowerReads;
}

/** The sandbox adapters for test keys, and the live ones the server was given for live keys. */
export function adapterResolver(live: NetworkAdapters): Publishing["adapterFor"] {
  const sandbox = new Map<NetworkId, NetworkAdapter>();
  return (mode, platform) => {
    if (mode === "live") return live[platform];
    let adapter = sandbox.get(platform);
    if (!adapter) {
      adapter = sandboxAdapter(platform);
      sandbox.set(platform, adapter);
    }
    return adapter;
  };
}
