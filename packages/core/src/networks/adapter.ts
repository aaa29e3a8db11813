import type { NetworkId, NetworkRule } from "../contract/networks.ts";
import type { AccountHealth } from "../contract/resources.ts";
import type { TargetMetrics } from "../store/types.ts";

/*
 * The seam between the service and a social network. The service holds the rules (who may post,
 * when, how often, what is retried); an adapter only knows how to talk to its network: check
 * credentials, publish one post, read its metrics back, and say what a failure means. The sandbox is
 * one more implementation of this interface, so the service publishes the same way in both modes.
 *
 * Adapters live outside @socialpub/core (in @socialpub/networks, one folder per network) with their
 * dependencies; core only defines what they must provide.
 */

/**
 * One live account's credentials, as its adapter understands them (an app password and a session, a bot
 * token and a chat, a webhook URL, OAuth tokens). The store keeps them encrypted; they never appear in
 * an answer, an event, a log line or an error.
 */
export type Credentials = Readonly<Record<string, string | number | boolean | null>>;

/**
 * What a failure means, so the service knows what to do with it:
 * - `retry`: try again later (429, 5xx, a timeout or connection error before anything was sent);
 *   `retryAfterMs` carries the network's own hint when it gave one.
 * - `reauth`: the grant is gone (revoked token, changed password): the account turns reauth_required.
 * - `refused`: the request is wrong for this network (too long, bad media, chat not found): never retried.
 * - `unknown`: the request was sent and no answer came: it may have published. The service checks with
 *   `findPublished` where the adapter has it, and otherwise fails the target as "outcome unknown".
 */
export type FailureKind = "retry" | "reauth" | "refused" | "unknown";

/** A classified failure. `message` says which network said what, in words a user can act on. */
export class NetworkError extends Error {
  readonly network: NetworkId;
  readonly kind: FailureKind;
  /** The network's own hint of when to try again, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** The HTTP status the network answered with, when it answered. */
  readonly status: number | undefined;

  constructor(
    network: NetworkId,
    kind: FailureKind,
    message: string,
    details: { retryAfterMs?: number; status?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "NetworkError";
    this.network = network;
    this.kind = kind;
    this.retryAfterMs = details.retryAfterMs;
    this.status = details.status;
  }
}

/** What connecting (or checking) an account found out. */
export interface ConnectedAccount {
  /** The handle as the network shows it (@name, a channel title, a webhook's name). */
  handle: string;
  /** Followers where the network says; 0 where it does not. */
  followers: number;
  health: AccountHealth;
  /** What to keep for publishing: may hold more than was given (a session, a resolved chat id). */
  credentials: Credentials;
}

/**
 * A live account as an adapter sees it while it works. `saveCredentials` stores credentials the adapter
 * changed (a refreshed session, a rotated refresh token) before it goes on using them, so a crash right
 * after a refresh does not leave the store holding a token the network has already invalidated.
 */
export interface AccountSession {
  readonly handle: string;
  readonly credentials: Credentials;
  saveCredentials(next: Credentials): Promise<void>;
}

/** One media file, already fetched by the service (address rule and size limit applied). */
export interface MediaFile {
  bytes: Uint8Array;
  /** image/jpeg, video/mp4, … as sniffed from the bytes. */
  contentType: string;
  filename: string;
  /** A public URL of the same bytes, for networks that fetch media themselves (instagram, threads). */
  url: string;
  alt?: string;
}

/**
 * How far a publish in several steps got, as its adapter saves it: ids the network handed out (a media
 * container) and where the publish stood. Never a secret: it is kept in the clear on the target.
 */
export type PublishStep = Readonly<Record<string, string | number | boolean | null>>;

/** What the service knows of an attempt whose answer never came, for `findPublished`. */
export interface LostAttempt {
  /** The post's key on this network, as the attempt had it (`PublishInput.key`). */
  key: string;
  /** The text the attempt sent, as adapted to this network (`PublishInput.text`). */
  text: string;
  /**
   * No post of this attempt can be older than this (Unix ms): when the post was made or fell due, less
   * a minute for the network's clock. A post with the same text made before it is someone else's.
   */
  since: number;
}

/** One further message of a thread, already adapted to the network: its text and media. */
export interface PartInput {
  text: string;
  media: readonly MediaFile[];
}

/** A poll as the network gets it, already checked against the network's bounds. */
export interface PollInput {
  options: readonly string[];
  /** Within the network's bounds, or null when the network is not told (its poll then runs as it does). */
  durationMinutes: number | null;
}

export interface PublishInput {
  /** The service's id of the post (post_…), for the adapter's own records; never sent as content. */
  postId: string;
  /** The text, already adapted to this network's limit (the first part of a thread). */
  text: string;
  /** The first message's media, in order, each with its alt text where the post gave one. */
  media: readonly MediaFile[];
  /**
   * Rich posts (decisions.md "Rich posts"), each absent or empty when the post has none. Only what the
   * network carries (its rule's `carries`) reaches the adapter; the rest was joined or noted before.
   * - `thread`: further parts, published in order after the first, as replies (x, bluesky, threads)
   *   or consecutive messages (telegram, discord): use `publishThread` (publishing/thread.ts), which
   *   saves each part's outcome as a step, so a retry or restart continues from the first part not
   *   published and never sends one twice.
   * - `firstComment`: added by the same account to the first part once it is published; a comment
   *   that fails does not fail the post (publishThread reports it).
   * - `poll`, `options`: the network's own, checked by its schema and bounds.
   */
  thread?: readonly PartInput[];
  firstComment?: string | null;
  poll?: PollInput | null;
  options?: Readonly<Record<string, unknown>>;
  /**
   * Stable for this post on this network across retries and restarts. Where the network lets the
   * caller choose the new post's key (Bluesky's record key), the adapter uses it, so a retry cannot
   * make a second post. It is a TID (13 characters of base32-sortable, as atproto record keys are), so
   * it fits a record key as it is.
   */
  key: string;
  /**
   * Aborted when the service stops waiting for this attempt (its time limit, or shutdown). An adapter
   * that had already sent the request throws `unknown`; one that had not, `retry`.
   */
  signal: AbortSignal;
  /**
   * What an earlier attempt of this post on this network saved with `saveStep`, or null. A network that
   * publishes in several steps (make a media container, poll until it is ready, publish it) resumes
   * from it instead of starting over: after a retry or a restart it looks at the saved container (not
   * published yet → publish it; published already → answer that post), so the post never goes out
   * twice. While a step is saved, an attempt whose outcome is unknown is tried again (it resumes from
   * the step) rather than failed.
   */
  step: PublishStep | null;
  /**
   * Keeps the publish's progress in the store before the adapter goes on (make the container, save
   * its id, then poll and publish), so a crash after it resumes from there. Throws NetworkError `retry`
   * when it cannot be saved (this attempt was cut off meanwhile): the adapter must then stop.
   */
  saveStep(step: PublishStep): Promise<void>;
}

export interface PublishedPost {
  /** The network's id of the post (a record key, a message id): the first part of a thread. */
  id: string;
  permalink: string;
  /** Every part of a thread as published, the first included; absent for a single message. */
  parts?: readonly { id: string; permalink: string }[];
  /** What became of the first comment; absent when the post had none. */
  firstComment?: { status: "published" | "failed"; permalink: string | null; error: string | null };
}

/** How fast one account may publish: at most `count` posts in any `windowMs`. */
export interface PacingRule {
  count: number;
  windowMs: number;
}

/** What the service lends an adapter while it connects an account. */
export interface ConnectContext {
  signal: AbortSignal;
  /**
   * Checks a URL the user gave (a Bluesky PDS, a Discord webhook URL) against the public-address rule
   * the service applies to webhook URLs: http(s), no user name or password, and, unless the server
   * allows private addresses (--dev, --allow-private-urls), a host that resolves only to public
   * addresses. Returns the URL; throws an error whose message names `field` and the fix (the service
   * answers it as 400).
   */
  checkUserUrl(value: string, field: string): Promise<URL>;
}

/** The live adapters a server publishes through, by network id; a network absent here cannot connect. */
export type NetworkAdapters = Partial<Record<NetworkId, NetworkAdapter>>;

export interface NetworkAdapter {
  readonly id: NetworkId;
  /** Text limits and media rules: the same table the sandbox uses. */
  readonly rule: NetworkRule;
  /** The network's documented limits per account; the service waits or refuses beyond them. */
  readonly pacing: readonly PacingRule[];
  /** Largest media file the network takes, in bytes. */
  readonly maxMediaBytes: number;
  /**
   * True when publishing sends nothing out of the service (the sandbox): an attempt then has no effect
   * anywhere until its outcome is written, so a publish-now need not mark it in flight first, and writes
   * the post with what its networks did in one step.
   */
  readonly local?: boolean;

  /**
   * Checks credentials a user pasted (the fields of POST /accounts/connect other than `platform`)
   * against the network at once. Throws NetworkError: `refused` or `reauth` for bad credentials (400),
   * `retry` when the network could not be reached (502). Not called for a network that connects
   * through OAuth (`oauth`): the service starts the OAuth connect instead.
   */
  connect(fields: Readonly<Record<string, unknown>>, context: ConnectContext): Promise<ConnectedAccount>;

  /** The OAuth 2.0 steps of a network a user connects by granting access on the network's own page. */
  readonly oauth?: OAuthSteps;

  /** Publishes one post. Throws NetworkError, classified. */
  publish(account: AccountSession, post: PublishInput): Promise<PublishedPost>;

  /**
   * Looks for the post an attempt whose answer never came may have made. Where the network lets us
   * choose the post's key (Bluesky's record key) it reads that key; elsewhere it reads back the
   * account's recent posts for one with the same text made since `lost.since`. Answers null when the
   * network says the post is not there, and the service then sends it again. Absent when the network
   * gives no way to tell; then such a target fails as "outcome unknown" instead of posting twice.
   */
  findPublished?(
    account: AccountSession,
    lost: LostAttempt,
    signal: AbortSignal,
  ): Promise<PublishedPost | null>;

  /**
   * Reads the account's follower count now (Bluesky's profile followersCount, a Telegram chat's member
   * count). Absent when the network reports none after connect (Discord webhooks have no followers).
   * Throws NetworkError; the service then keeps the count it had.
   */
  readFollowers?(account: AccountSession, signal: AbortSignal): Promise<number>;

  /** Reads the post's counts. Absent when the network reports none (Discord webhooks, Telegram bots). */
  readMetrics?(
    account: AccountSession,
    post: PublishedPost,
    signal: AbortSignal,
  ): Promise<Partial<TargetMetrics>>;
}

/*
 * OAuth accounts keep their grant in their credentials under these names, so the service can tell
 * when a token needs refreshing without knowing the network: `access_token`, `refresh_token` (absent
 * or null when the grant cannot be refreshed), and `expires_at`, when the access token ends (Unix ms;
 * absent or null when it does not).
 */
export interface OAuthGrant {
  access_token: string;
  refresh_token?: string | null;
  expires_at?: number | null;
}

/** The authorize, exchange and refresh steps of an OAuth 2.0 network. */
export interface OAuthSteps {
  /**
   * The settings this server lacks to connect the network (environment variable names: a client id,
   * a secret); empty when it has them. A connect answers 400 naming them.
   */
  readonly missingSettings: readonly string[];
  /** Whether the network takes PKCE (RFC 7636, S256). */
  readonly pkce: boolean;
  /**
   * Fields of POST /accounts/connect the network needs beside `platform` (a Pinterest board, a
   * subreddit), checked when the connect starts; what it answers is kept with the pending connect and
   * given back to `exchange`. Throws NetworkError `refused` (400) for a missing or bad field.
   */
  startFields?(fields: Readonly<Record<string, unknown>>): Record<string, string>;
  /** The network's page where the user grants access. */
  authorizeUrl(request: { state: string; redirectUri: string; codeChallenge: string | null }): string;
  /**
   * Trades the code the callback brought for tokens, and reads the account they belong to. The
   * credentials it answers hold the grant (OAuthGrant) and whatever else publishing needs. Throws
   * NetworkError (the network's refusal in words a user can act on).
   */
  exchange(request: {
    code: string;
    redirectUri: string;
    codeVerifier: string | null;
    fields: Readonly<Record<string, string>>;
    signal: AbortSignal;
  }): Promise<ConnectedAccount>;
  /**
   * Trades the refresh token for a new grant; answers the credentials to keep (the rotated refresh
   * token included). Throws NetworkError: `reauth` when the network refuses the refresh token.
   */
  refresh(credentials: Credentials, signal: AbortSignal): Promise<Credentials>;
}
