import { mediaKindOfType } from "../contract/media-kinds.ts";
import { NETWORK_RULES, type NetworkId } from "../contract/networks.ts";
import { publishThread } from "../publishing/thread.ts";
import { sandboxPermalink } from "../service/sandbox/permalinks.ts";
import { type MediaFile, type NetworkAdapter, NetworkError, type PublishInput } from "./adapter.ts";

/**
 * A sandbox network, behind the same seam as the real ones: test keys publish through it. It posts
 * nowhere: publishing answers at once with a permalink in the shape of the network's real ones,
 * derived from the post id, network and handle, so the same post always gets the same link. Nothing
 * is sent anywhere, so an attempt whose outcome was lost may simply be made again (findPublished
 * answers "not there").
 *
 * Rich posts (decisions.md "Rich posts") publish as the network would: a thread part by part (a
 * permalink each) where it threads, the first comment (a permalink) where it takes one, and what the
 * network would refuse — media beyond its `carries`, a thread, poll or comment it has no place for — is
 * refused, as the real network would refuse it.
 */
export function sandboxAdapter(platform: NetworkId): NetworkAdapter {
  return {
    id: platform,
    rule: NETWORK_RULES[platform],
    pacing: [],
    maxMediaBytes: Number.POSITIVE_INFINITY,
    local: true,
    async connect(fields) {
      const handle = typeof fields.handle === "string" && fields.handle !== "" ? fields.handle : platform;
      return { handle, followers: 0, health: "healthy", credentials: {} };
    },
    async publish(account, post) {
      refuseWhatTheNetworkWould(platform, post);
      // Nothing goes out, so there is no progress to keep between parts.
      const local: PublishInput = { ...post, step: null, saveStep: async () => {} };
      return publishThread(platform, local, {
        send: async (part) => ({
          id: part.index === 0 ? post.key : `${post.key}-${part.index + 1}`,
          permalink: await sandboxPermalink(post.postId, platform, account.handle, `part ${part.index}`),
        }),
        ...(NETWORK_RULES[platform].carries.firstComment && {
          comment: async (_text, root) => ({
            id: `${root.id}-comment`,
            permalink: await sandboxPermalink(post.postId, platform, account.handle, "comment"),
          }),
        }),
      });
    },
    async findPublished() {
      return null;
    },
  };
}

/** What the real network refuses, from its rule's `carries`: the sandbox refuses the same. */
function refuseWhatTheNetworkWould(platform: NetworkId, post: PublishInput): void {
  const rule = NETWORK_RULES[platform];
  const refuse = (why: string) => new NetworkError(platform, "refused", `${rule.name}: ${why}`);
  if (post.thread && post.thread.length > 0 && rule.carries.threads === "joined") {
    throw refuse("takes no threads; the parts are joined into one post before publishing.");
  }
  if (post.poll && rule.carries.poll === null) throw refuse("takes no poll.");
  if (post.firstComment && !rule.carries.firstComment) throw refuse("cannot add a first comment.");
  for (const [i, media] of [post.media, ...(post.thread ?? []).map((p) => p.media)].entries()) {
    const why = mediaRefusal(platform, media);
    if (why) throw refuse(post.thread?.length ? `part ${i + 1}: ${why}` : why);
  }
  if (post.poll && rule.carries.poll && !rule.carries.poll.withMedia && post.media.length > 0) {
    throw refuse("takes no poll on a post with media.");
  }
}

function mediaRefusal(platform: NetworkId, media: readonly MediaFile[]): string | null {
  const c = NETWORK_RULES[platform].carries.media;
  const kinds = media.map((m) => mediaKindOfType(m.contentType));
  const images = kinds.filter((k) => k === "image").length;
  const videos = kinds.filter((k) => k === "video").length;
  if (media.length > c.maxItems) return `takes at most ${c.maxItems} media items in one post.`;
  if (images > c.maxImages) return `takes at most ${c.maxImages} images in one post.`;
  if (videos > c.maxVideos) return `takes at most ${c.maxVideos} videos in one post.`;
  if (!c.mixed && images > 0 && videos > 0) return "does not mix images and videos in one post.";
  if (media.length > 1 && media.length < c.minItemsWhenSeveral) {
    return `takes ${c.minItemsWhenSeveral} to ${c.maxItems} media items when there is more than one.`;
  }
  return null;
}
