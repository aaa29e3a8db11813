import { NETWORK_RULES, type NetworkId } from "../contract/networks.ts";
import { sandboxPermalink } from "../service/sandbox/permalinks.ts";
import type { NetworkAdapter } from "./adapter.ts";

/**
 * A sandbox network, behind the same seam as the real ones: test keys publish through it. It posts
 * nowhere: publishing answers at once with a permalink in the shape of the network's real ones,
 * derived from the post id, network and handle, so the same post always gets the same link. Nothing
 * is sent anywhere, so an attempt whose outcome was lost may simply be made again (findPublished
 * answers "not there").
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
      return { id: post.key, permalink: await sandboxPermalink(post.postId, platform, account.handle) };
    },
    async findPublished() {
      return null;
    },
  };
}
