// The Bluesky adapter's work, through @atproto/api: connects an account with an app password, publishes
// app.bsky.feed.post records to the account's PDS, finds a post made by an earlier attempt, and reads
// its counts. Loaded when a Bluesky account is first used (adapter.ts).

import type { AppBskyFeedPost, ComAtprotoRepoStrongRef } from "@atproto/api";
import type {
  AccountSession,
  ConnectedAccount,
  MediaFile,
  NetworkAdapter,
  PublishedPost,
  PublishInput,
  SentPart,
} from "@socialpub/core";
import { NETWORK_RULES, NetworkError, publishThread } from "@socialpub/core";
import { BLUESKY_PACING, type BlueskyAdapterOptions, DEFAULT_SERVICE, permalinkOf } from "./adapter.ts";
import { clientFor } from "./client.ts";
import { type BlueskyCredentials, jwtClaims, toCredentials } from "./credentials.ts";
import { checkMedia, linkCard, MAX_MEDIA_BYTES, mediaEmbed } from "./embed.ts";
import { classify, xrpcErrorName, xrpcStatus } from "./errors.ts";
import { partRecordKey, recordKeyFor } from "./record-key.ts";
import { facetsOf } from "./rich-text.ts";
import { isExpiredSession, openSession, originOf, SessionKeeper } from "./session.ts";
import { fitTextBytes } from "./text.ts";

const POST_COLLECTION = "app.bsky.feed.post";

function postUri(did: string, rkey: string): string {
  return `at://${did}/${POST_COLLECTION}/${rkey}`;
}

/** The strong reference (uri and cid) a part keeps in its SentPart.ref. */
function strongRef(part: SentPart): ComAtprotoRepoStrongRef.Main {
  const ref = JSON.parse(part.ref ?? "null") as { uri?: unknown; cid?: unknown } | null;
  if (typeof ref?.uri !== "string" || typeof ref.cid !== "string" || ref.cid === "") {
    throw new NetworkError("bluesky", "refused", `the saved reference of post ${part.id} is incomplete`);
  }
  return { uri: ref.uri, cid: ref.cid };
}

/** A reply's root and parent; none for the first part. */
function replyTo(parent: SentPart | null, root: SentPart | null): AppBskyFeedPost.ReplyRef | undefined {
  if (!parent || !root) return undefined;
  return { root: strongRef(root), parent: strongRef(parent) };
}

function requiredString(fields: Readonly<Record<string, unknown>>, name: string, what: string): string {
  const value = fields[name];
  if (typeof value !== "string" || value.trim() === "") {
    throw new NetworkError("bluesky", "refused", `Bluesky needs ${name}: ${what}`);
  }
  return value.trim();
}

/** An expired session goes up as it is (the session keeper renews it and tries again); the rest is classified. */
function passExpired(error: unknown, what: string): unknown {
  return isExpiredSession(error) ? error : classify(error, what);
}

export function atprotoAdapter(options: BlueskyAdapterOptions): NetworkAdapter {
  const sessionOptions = {
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 15_000,
    now: options.now ?? Date.now,
  };
  const defaultService = options.defaultService ?? DEFAULT_SERVICE;
  const sessions = new SessionKeeper(sessionOptions);
  const client = (session: BlueskyCredentials, signal: AbortSignal) =>
    clientFor(session.pds, session.access_jwt, sessionOptions, signal);

  async function readPost(session: BlueskyCredentials, rkey: string, signal: AbortSignal) {
    try {
      const { data } = await client(session, signal).com.atproto.repo.getRecord(
        { repo: session.did, collection: POST_COLLECTION, rkey },
        { signal },
      );
      return data;
    } catch (error) {
      if (xrpcStatus(error) === 400 && xrpcErrorName(error) === "RecordNotFound") return null;
      throw error;
    }
  }

  /**
   * Creates one app.bsky.feed.post under `rkey`: the text with its facets, its media (or a link card),
   * and, for a reply, its root and parent. A record already under the key is this post, made by an
   * earlier attempt (the PDS refuses a second create of the same key): it is answered as it is.
   */
  async function createPost(
    session: BlueskyCredentials,
    rkey: string,
    fullText: string,
    media: readonly MediaFile[],
    reply: AppBskyFeedPost.ReplyRef | undefined,
    signal: AbortSignal,
  ): Promise<SentPart> {
    const agent = client(session, signal);
    const text = fitTextBytes(fullText);
    let record: AppBskyFeedPost.Record;
    try {
      const { facets, links } = await facetsOf(text, agent, signal);
      const embed =
        media.length > 0
          ? await mediaEmbed(agent, media, signal)
          : links[0] !== undefined
            ? linkCard(links[0])
            : undefined;
      record = {
        $type: POST_COLLECTION,
        text,
        createdAt: new Date(sessionOptions.now()).toISOString(),
        ...(reply ? { reply } : {}),
        ...(facets.length > 0 ? { facets } : {}),
        ...(embed ? { embed } : {}),
      };
    } catch (error) {
      throw passExpired(error, "preparing the post");
    }
    try {
      const { data } = await agent.com.atproto.repo.createRecord(
        { repo: session.did, collection: POST_COLLECTION, rkey, record, validate: true },
        { signal },
      );
      return sentPart(session, rkey, data.uri, data.cid);
    } catch (error) {
      if (isExpiredSession(error)) throw error;
      // A record already under this key is this post, made by an earlier attempt, or made by this one
      // before an error answer.
      const status = xrpcStatus(error);
      if (status !== undefined && status !== 429) {
        const earlier = await existingPost(session, rkey, reply, signal).catch((lookup) => {
          if (lookup instanceof NetworkError && lookup.kind === "refused") throw lookup;
          return null;
        });
        if (earlier) return earlier;
      }
      throw classify(error, "publishing the post", true);
    }
  }

  /**
   * The post under `rkey`, or null when there is none. A reply's record must answer the same parent:
   * a record under the key that does not is another post, and nothing is sent over it.
   */
  async function existingPost(
    session: BlueskyCredentials,
    rkey: string,
    reply: AppBskyFeedPost.ReplyRef | undefined,
    signal: AbortSignal,
  ): Promise<SentPart | null> {
    const found = await readPost(session, rkey, signal);
    if (!found) return null;
    const value = found.value as AppBskyFeedPost.Record;
    if (reply && value.reply?.parent.uri !== reply.parent.uri) {
      throw new NetworkError(
        "bluesky",
        "refused",
        `Bluesky already has another post under the record key ${rkey} this reply needs; it was not sent`,
      );
    }
    return sentPart(session, rkey, found.uri, found.cid ?? "");
  }

  function sentPart(session: BlueskyCredentials, rkey: string, uri: string, cid: string): SentPart {
    return { id: rkey, permalink: permalinkOf(session.handle, rkey), ref: JSON.stringify({ uri, cid }) };
  }

  return {
    id: "bluesky",
    rule: NETWORK_RULES.bluesky,
    pacing: BLUESKY_PACING,
    maxMediaBytes: MAX_MEDIA_BYTES,

    async connect(fields, context): Promise<ConnectedAccount> {
      const { signal } = context;
      // "@alice.bsky.social" as Bluesky shows it is the handle alice.bsky.social.
      const identifier = requiredString(
        fields,
        "handle",
        "the account's handle, like alice.bsky.social",
      ).replace(/^@/, "");
      const appPassword = requiredString(
        fields,
        "app_password",
        "an app password made in Bluesky's Settings → Privacy and security → App passwords",
      );
      const serviceField =
        fields.service === undefined || fields.service === null ? defaultService : fields.service;
      if (typeof serviceField !== "string" || !originOf(serviceField.trim())) {
        throw new NetworkError(
          "bluesky",
          "refused",
          "Bluesky's service must be the http(s) address of a PDS, like https://bsky.social",
        );
      }
      // A self-hosted PDS is an address the user gave: it must pass the service's public-address rule.
      const service = (await context.checkUserUrl(serviceField.trim(), "service")).origin;
      let session: BlueskyCredentials;
      try {
        session = await openSession(
          { service, identifier, app_password: appPassword },
          sessionOptions,
          signal,
        );
      } catch (error) {
        const status = xrpcStatus(error);
        if (status === 401 || status === 400) {
          throw new NetworkError(
            "bluesky",
            "refused",
            `Bluesky refused the login for ${identifier}: ${(error as Error).message || xrpcErrorName(error)}`,
            { status, cause: error },
          );
        }
        throw classify(error, `logging in to ${service}`);
      }
      // The account's own PDS (from its DID document) is where posts go: the same rule applies to it.
      if (session.pds !== service) await context.checkUserUrl(session.pds, "service");
      // The account password opens a session that can change the account itself; we keep only what
      // posting needs, so we ask for an app password.
      if (jwtClaims(session.access_jwt).scope === "com.atproto.access") {
        // That session is not kept: end it at once rather than leave a full-access session behind.
        await clientFor(service, session.refresh_jwt, sessionOptions, signal)
          .com.atproto.server.deleteSession()
          .catch(() => {});
        throw new NetworkError(
          "bluesky",
          "refused",
          "That is the account's own password: make an app password in Bluesky's Settings → Privacy and security → App passwords, and connect with it",
        );
      }
      return {
        handle: session.handle,
        followers: await followersOf(session, signal),
        health: "healthy",
        credentials: toCredentials(session),
      };
    },

    async publish(account: AccountSession, post: PublishInput): Promise<PublishedPost> {
      const { signal } = post;
      // Every part's media is checked before anything is uploaded or posted.
      const parts = [post.media, ...(post.thread ?? []).map((part) => part.media)];
      parts.forEach((media, index) => {
        checkMedia(media, parts.length > 1 ? `part ${index + 1} of ${parts.length}: ` : "");
      });
      return publishThread("bluesky", post, {
        // Each part is created under a record key derived from the post's key, as a reply to the part
        // before (`parent`) in the thread that starts at the first part (`root`).
        send: (part, parent, root) =>
          sessions.run(account, signal, (session) =>
            createPost(
              session,
              partRecordKey(post.key, part.index),
              part.text,
              part.media,
              replyTo(parent, root),
              signal,
            ),
          ),
        // A part whose answer never came is read at its key: there, it is that part; absent, it is sent.
        find: (part, parent, root) =>
          sessions.run(account, signal, async (session) => {
            try {
              return await existingPost(
                session,
                partRecordKey(post.key, part.index),
                replyTo(parent, root),
                signal,
              );
            } catch (error) {
              throw passExpired(error, "looking for the post");
            }
          }),
        // The first comment is a reply to the first part, under a key of its own.
        comment: (text, first) =>
          sessions.run(account, signal, (session) =>
            createPost(session, partRecordKey(post.key, "comment"), text, [], replyTo(first, first), signal),
          ),
        // A first comment whose answer never came is read at its key, as a part is.
        findComment: (_text, first) =>
          sessions.run(account, signal, async (session) => {
            try {
              return await existingPost(
                session,
                partRecordKey(post.key, "comment"),
                replyTo(first, first),
                signal,
              );
            } catch (error) {
              throw passExpired(error, "looking for the first comment");
            }
          }),
      });
    },

    async findPublished(account, lost, signal): Promise<PublishedPost | null> {
      const rkey = recordKeyFor(lost.key);
      return sessions.run(account, signal, async (session) => {
        try {
          const found = await readPost(session, rkey, signal);
          return found ? { id: rkey, permalink: permalinkOf(session.handle, rkey) } : null;
        } catch (error) {
          throw passExpired(error, "looking for the post");
        }
      });
    },

    async readFollowers(account, signal) {
      return sessions.run(account, signal, async (session) => {
        try {
          const { data } = await client(session, signal).app.bsky.actor.getProfile(
            { actor: session.did },
            { signal },
          );
          return data.followersCount ?? 0;
        } catch (error) {
          throw passExpired(error, "reading the account's followers");
        }
      });
    },

    async readMetrics(account, post, signal) {
      return sessions.run(account, signal, async (session) => {
        try {
          const { data } = await client(session, signal).app.bsky.feed.getPosts(
            { uris: [postUri(session.did, post.id)] },
            { signal },
          );
          const view = data.posts[0];
          if (!view) return {};
          // Bluesky reports no reach (no views or impressions): reach is left alone, never estimated.
          return {
            likes: view.likeCount ?? 0,
            comments: view.replyCount ?? 0,
            shares: (view.repostCount ?? 0) + (view.quoteCount ?? 0),
          };
        } catch (error) {
          throw passExpired(error, "reading the post's counts");
        }
      });
    },
  };

  /** The account's followers as the AppView counts them; 0 when the PDS has no AppView to ask. */
  async function followersOf(session: BlueskyCredentials, signal: AbortSignal): Promise<number> {
    try {
      const { data } = await client(session, signal).app.bsky.actor.getProfile(
        { actor: session.did },
        { signal },
      );
      return data.followersCount ?? 0;
    } catch {
      return 0;
    }
  }
}
