// The Bluesky adapter's work, through @atproto/api: connects an account with an app password, publishes
// app.bsky.feed.post records to the account's PDS, finds a post made by an earlier attempt, and reads
// its counts. Loaded when a Bluesky account is first used (adapter.ts).

import type { AppBskyFeedPost } from "@atproto/api";
import type {
  AccountSession,
  ConnectedAccount,
  NetworkAdapter,
  PublishedPost,
  PublishInput,
} from "@socialpub/core";
import { NETWORK_RULES, NetworkError } from "@socialpub/core";
import { BLUESKY_PACING, type BlueskyAdapterOptions, DEFAULT_SERVICE, permalinkOf } from "./adapter.ts";
import { clientFor } from "./client.ts";
import { type BlueskyCredentials, jwtClaims, toCredentials } from "./credentials.ts";
import { checkMedia, imagesEmbed, linkCard, MAX_IMAGE_BYTES } from "./embed.ts";
import { classify, xrpcErrorName, xrpcStatus } from "./errors.ts";
import { recordKeyFor } from "./record-key.ts";
import { facetsOf } from "./rich-text.ts";
import { isExpiredSession, openSession, originOf, SessionKeeper } from "./session.ts";
import { fitTextBytes } from "./text.ts";

const POST_COLLECTION = "app.bsky.feed.post";

function postUri(did: string, rkey: string): string {
  return `at://${did}/${POST_COLLECTION}/${rkey}`;
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

  return {
    id: "bluesky",
    rule: NETWORK_RULES.bluesky,
    pacing: BLUESKY_PACING,
    maxMediaBytes: MAX_IMAGE_BYTES,

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
      checkMedia(post.media);
      const rkey = recordKeyFor(post.key);
      const text = fitTextBytes(post.text);
      return sessions.run(account, signal, async (session) => {
        const agent = client(session, signal);
        let record: AppBskyFeedPost.Record;
        try {
          const { facets, links } = await facetsOf(text, agent, signal);
          const embed =
            post.media.length > 0
              ? await imagesEmbed(agent, post.media, signal)
              : links[0] !== undefined
                ? linkCard(links[0])
                : undefined;
          record = {
            $type: POST_COLLECTION,
            text,
            createdAt: new Date(sessionOptions.now()).toISOString(),
            ...(facets.length > 0 ? { facets } : {}),
            ...(embed ? { embed } : {}),
          };
        } catch (error) {
          throw passExpired(error, "preparing the post");
        }
        try {
          await agent.com.atproto.repo.createRecord(
            { repo: session.did, collection: POST_COLLECTION, rkey, record, validate: true },
            { signal },
          );
        } catch (error) {
          if (isExpiredSession(error)) throw error;
          // A record already under this key is this post, made by an earlier attempt (the PDS refuses
          // a second create of the same key), or made by this one before an error answer.
          const status = xrpcStatus(error);
          if (status !== undefined && status !== 429) {
            const earlier = await readPost(session, rkey, signal).catch(() => null);
            if (earlier) return { id: rkey, permalink: permalinkOf(session.handle, rkey) };
          }
          throw classify(error, "publishing the post", true);
        }
        return { id: rkey, permalink: permalinkOf(session.handle, rkey) };
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
