// Direct mode's publisher: the in-job service posts (X: x-direct.ts, with its OAuth 1.0a credentials),
// and what earlier runs posted for the same release is found first (in the ledger, or by the network
// itself where its adapter can find a post by our key, as Bluesky's record key does; on X by reading the
// account's posts since the release), so a re-run posts only where no earlier run did.
import { NETWORK_RULES, type NetworkId, type Target } from "@socialpub/core";
import type { XOAuth1Credentials } from "@socialpub/networks/x";
import type { Log } from "../announce.ts";
import type { NewPost } from "../publisher.ts";
import {
  type DirectCredentials,
  type DirectNetwork,
  inJobNetworksWithCredentials,
  networksWithCredentials,
} from "./credentials.ts";
import { type InJobService, startInJobService } from "./in-job-service.ts";
import { type Ledger, type LedgerEntries, noLedger } from "./ledger.ts";
import { X_DIRECT } from "./networks.ts";
import { networkKey } from "./release-key.ts";
import { type XDirect, xDirect } from "./x-direct.ts";

/** One network's result in direct mode. */
export interface NetworkResult {
  platform: NetworkId;
  /** `already-posted`: an earlier run of this release posted it; nothing was sent this time. */
  status: "published" | "already-posted" | "failed";
  permalink: string | null;
  error: string | null;
  /** The text as adapted for the network, when it was sent in this run. */
  text: string | null;
  /** A thread (X): how many parts it has, and how many of them are on the network. */
  parts?: { total: number; published: number };
}

export interface DirectAnnouncement {
  /** What identifies the release's announcement across runs (release-key.ts). */
  key: string;
  /** The release's publication time (Unix ms), which the networks' keys carry. */
  releaseTimeMs: number;
}

export interface DirectPublisher {
  readonly kind: "direct";
  /** Starts the in-job service and connects the networks (each checks its credentials). */
  connectedPlatforms(): Promise<NetworkId[]>;
  announce(post: NewPost, announcement: DirectAnnouncement): Promise<NetworkResult[]>;
  readonly ledger: Ledger;
  close(): Promise<void>;
}

export function createDirectPublisher(
  credentials: DirectCredentials,
  options: { env: NodeJS.ProcessEnv; ledger: Ledger; log: Log },
): DirectPublisher {
  let service: InJobService | undefined;
  let current: DirectAnnouncement | undefined;
  const { ledger, log } = options;
  const x: XDirect | undefined = credentials.x
    ? xDirect(credentials.x as unknown as XOAuth1Credentials, options.env)
    : undefined;
  let xChecked = false;

  async function started(): Promise<InJobService> {
    service ??= await startInJobService(credentials, {
      env: options.env,
      // Every post of this run is the release's announcement: its networks' keys come from the
      // release, never from the in-job post id, which a re-run does not share.
      publishKey: (post, platform) =>
        current ? networkKey(current.key, current.releaseTimeMs, platform) : `${post.id}:${platform}`,
    });
    if (x && !xChecked) {
      await x.check();
      xChecked = true;
    }
    if (ledger === noLedger) warnUnremembered(service);
    return service;
  }

  /** Without a ledger, a re-run posts again wherever the network cannot find our earlier post. */
  function warnUnremembered(svc: InJobService): void {
    const networks = networksWithCredentials(credentials);
    // X is read back before posting (x-direct.ts); Bluesky finds its record key.
    const canFind = (network: DirectNetwork) =>
      network === X_DIRECT.id || svc.adapter(network).findPublished !== undefined;
    const names = (list: DirectNetwork[]) => list.map((network) => NETWORK_RULES[network].name);
    const unremembered = names(networks.filter((network) => !canFind(network)));
    if (unremembered.length === 0) return;
    const found = names(networks.filter(canFind));
    log.warning(
      `This runner offers no Actions cache, so nothing remembers what is posted to ${unremembered.join(" or ")}: a re-run of this job would post there again` +
        (found.length > 0
          ? ` (${found.join(" and ")} ${found.length === 1 ? "is" : "are"} checked for an earlier post before posting).`
          : "."),
    );
  }

  /**
   * A network's post for this announcement, if an earlier run made it and the network can find a post
   * by our key (its adapter's findPublished): Bluesky reads its record key.
   */
  async function foundEarlier(
    network: DirectNetwork,
    post: NewPost,
    announcement: DirectAnnouncement,
  ): Promise<LedgerEntries> {
    const svc = await started();
    // X is looked up as it is posted to (x-direct.ts), not by a key.
    if (network === X_DIRECT.id) return {};
    const adapter = svc.adapter(network);
    if (!adapter.findPublished) return {};
    const session = await svc.sessionFor(network);
    if (!session) return {};
    try {
      const key = networkKey(announcement.key, announcement.releaseTimeMs, network);
      const lost = { key, text: post.captions?.[network] ?? post.caption, since: announcement.releaseTimeMs };
      const found = await adapter.findPublished(session, lost, AbortSignal.timeout(30_000));
      return found ? { [network]: { permalink: found.permalink, at: Date.now() } } : {};
    } catch (error) {
      // Not knowing is no reason to skip the network: its key still refuses a second post.
      log.warning(
        `Could not check ${NETWORK_RULES[network].name} for an earlier post of this release: ${(error as Error).message}`,
      );
      return {};
    }
  }

  return {
    kind: "direct",
    ledger,
    async connectedPlatforms() {
      await started();
      return networksWithCredentials(credentials);
    },
    async announce(post, announcement) {
      current = announcement;
      const svc = await started();
      const earlier: LedgerEntries = { ...(await ledger.read(announcement.key)) };
      for (const network of post.platforms)
        if (!earlier[network]) Object.assign(earlier, await foundEarlier(network, post, announcement));
      const toPost = post.platforms.filter((id) => earlier[id] === undefined);
      for (const id of post.platforms.filter((p) => earlier[p] !== undefined))
        log.info(`${NETWORK_RULES[id].name}: already posted by an earlier run (${earlier[id]!.permalink}).`);

      const inJob = toPost.filter((id) => inJobNetworksWithCredentials(credentials).includes(id));
      let targets: Target[] = [];
      const posted: LedgerEntries = {};
      if (inJob.length > 0) {
        const captions = Object.fromEntries(
          Object.entries(post.captions ?? {}).filter(([id]) => inJob.includes(id as NetworkId)),
        );
        const created = await svc.client.posts.create({
          caption: post.caption,
          ...(Object.keys(captions).length > 0 ? { captions } : {}),
          platforms: inJob,
          ...(post.media === undefined ? {} : { media: post.media }),
          ...(post.split === undefined ? {} : { split: post.split }),
          ...(post.first_comment === undefined ? {} : { first_comment: post.first_comment }),
        });
        targets = (await svc.client.posts.targets(created.id)).data;
        const now = Date.now();
        for (const target of targets) {
          // A thread that stopped part way is remembered too: a re-run never sends a part again.
          const first = target.parts?.[0];
          const permalink =
            target.status === "published"
              ? target.permalink
              : first?.status === "published"
                ? first.permalink
                : null;
          if (permalink) posted[target.platform] = { permalink, at: now };
        }
      }
      // X: what this release already has on the account is read back and only the rest is sent, so a
      // thread stopped part way is remembered only once it is whole (a re-run sends the missing parts).
      let xResult: NetworkResult | undefined;
      if (x && toPost.includes(X_DIRECT.id)) {
        const outcome = await x.publish(post, announcement.releaseTimeMs);
        xResult = {
          platform: X_DIRECT.id,
          status: outcome.status,
          permalink: outcome.status === "failed" ? null : outcome.permalink,
          error: outcome.error,
          text: outcome.status === "published" ? outcome.text : null,
          ...(outcome.parts > 1 &&
            outcome.status !== "failed" && { parts: { total: outcome.parts, published: outcome.parts } }),
        };
        if (outcome.status !== "failed" && outcome.permalink)
          posted[X_DIRECT.id] = { permalink: outcome.permalink, at: Date.now() };
      }
      if (Object.keys(posted).length > 0) await ledger.write(announcement.key, posted);

      return post.platforms.map((platform): NetworkResult => {
        const before = earlier[platform];
        if (before)
          return { platform, status: "already-posted", permalink: before.permalink, error: null, text: null };
        if (platform === X_DIRECT.id && xResult) return xResult;
        const target = targets.find((t) => t.platform === platform);
        if (target?.status === "published")
          return {
            platform,
            status: "published",
            permalink: target.permalink,
            error: null,
            text: target.text,
          };
        return {
          platform,
          status: "failed",
          permalink: null,
          error:
            target?.error ??
            `${NETWORK_RULES[platform].name} had not answered when the job had to go on; check it before re-running.`,
          text: target?.text ?? null,
        };
      });
    },
    async close() {
      await service?.close();
    },
  };
}

export type { DirectNetwork };
