// Direct mode's publisher: the in-job service posts, and what earlier runs posted for the same release
// is found first (Bluesky by its record key, the others in the ledger), so a re-run posts only where
// no earlier run did.
import { NETWORK_RULES, type NetworkId, type Target } from "@socialpub/core";
import type { Log } from "../announce.ts";
import type { NewPost } from "../publisher.ts";
import { type DirectCredentials, type DirectNetwork, networksWithCredentials } from "./credentials.ts";
import { type InJobService, startInJobService } from "./in-job-service.ts";
import type { Ledger, LedgerEntries } from "./ledger.ts";
import { networkKey } from "./release-key.ts";

/** One network's result in direct mode. */
export interface NetworkResult {
  platform: NetworkId;
  /** `already-posted`: an earlier run of this release posted it; nothing was sent this time. */
  status: "published" | "already-posted" | "failed";
  permalink: string | null;
  error: string | null;
  /** The text as adapted for the network, when it was sent in this run. */
  text: string | null;
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

  async function started(): Promise<InJobService> {
    service ??= await startInJobService(credentials, {
      env: options.env,
      // Every post of this run is the release's announcement: its networks' keys come from the
      // release, never from the in-job post id, which a re-run does not share.
      publishKey: (post, platform) =>
        current ? networkKey(current.key, current.releaseTimeMs, platform) : `${post.id}:${platform}`,
    });
    return service;
  }

  /** Bluesky's post for this announcement, if an earlier run made it (read by its record key). */
  async function blueskyEarlier(announcement: DirectAnnouncement): Promise<LedgerEntries> {
    const svc = await started();
    const session = await svc.sessionFor("bluesky");
    const adapter = svc.adapter("bluesky");
    if (!session || !adapter.findPublished) return {};
    try {
      // Bluesky finds its post by the record key alone; the text and time are for networks that read back.
      const key = networkKey(announcement.key, announcement.releaseTimeMs, "bluesky");
      const lost = { key, text: "", since: announcement.releaseTimeMs };
      const found = await adapter.findPublished(session, lost, AbortSignal.timeout(30_000));
      return found ? { bluesky: { permalink: found.permalink, at: Date.now() } } : {};
    } catch (error) {
      // Not knowing is no reason to skip Bluesky: its record key still refuses a second post.
      log.warning(`Could not check Bluesky for an earlier post of this release: ${(error as Error).message}`);
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
      if (post.platforms.includes("bluesky") && !earlier.bluesky)
        Object.assign(earlier, await blueskyEarlier(announcement));
      const toPost = post.platforms.filter((id) => earlier[id] === undefined);
      for (const id of post.platforms.filter((p) => earlier[p] !== undefined))
        log.info(`${NETWORK_RULES[id].name}: already posted by an earlier run (${earlier[id]!.permalink}).`);

      let targets: Target[] = [];
      if (toPost.length > 0) {
        const captions = Object.fromEntries(
          Object.entries(post.captions ?? {}).filter(([id]) => toPost.includes(id as NetworkId)),
        );
        const created = await svc.client.posts.create({
          caption: post.caption,
          ...(Object.keys(captions).length > 0 ? { captions } : {}),
          platforms: toPost,
          ...(post.media === undefined ? {} : { media: post.media }),
        });
        targets = (await svc.client.posts.targets(created.id)).data;
        const now = Date.now();
        const posted: LedgerEntries = {};
        for (const target of targets)
          if (target.status === "published" && target.permalink)
            posted[target.platform] = { permalink: target.permalink, at: now };
        if (Object.keys(posted).length > 0) await ledger.write(announcement.key, posted);
      }

      return post.platforms.map((platform): NetworkResult => {
        const before = earlier[platform];
        if (before)
          return { platform, status: "already-posted", permalink: before.permalink, error: null, text: null };
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
