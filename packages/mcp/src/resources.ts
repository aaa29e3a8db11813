import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import {
  isNetworkId,
  MEDIA_TYPE_BY_EXTENSION,
  NETWORK_IDS,
  NETWORK_RULES,
  type NetworkId,
  type SocialPublishClient,
} from "@socialpub/core";
import { errorResult, type KeySource } from "./tool-error.ts";

const LENGTH_UNITS = {
  characters: "Unicode code points (an emoji with a skin tone counts 2); URLs count in full",
  graphemes: "user-perceived characters (a family emoji counts 1); URLs count in full",
  weighted:
    "X's rule: Latin letters, digits and common punctuation count 1, other characters and each emoji 2, every URL 23",
} as const;

/** A network's rules as a model needs them to write within them (from the contract's NETWORK_RULES). */
export function networkRules(id: NetworkId) {
  const rule = NETWORK_RULES[id];
  return {
    id,
    name: rule.name,
    text_limit: rule.textLimit,
    text_limit_with_media: rule.textLimitWithMedia ?? rule.textLimit,
    length_unit: rule.lengthUnit,
    length_counts: LENGTH_UNITS[rule.lengthUnit],
    text_only_posts: !rule.needsMedia,
    media: rule.needsVideo
      ? "required: one video"
      : rule.needsMedia
        ? "required: one image or video"
        : "optional: one image or video",
    longer_text: "cut to fit the limit at the end of the last whole word, with a closing …",
  };
}

const MEDIA_TYPES = [...new Set(Object.values(MEDIA_TYPE_BY_EXTENSION))];

function json(uri: URL, value: unknown): ReadResourceResult {
  return {
    contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(value, null, 2) }],
  };
}

/**
 * Resources: the account's connected networks (read through the client, so with the caller's key),
 * and the rules of every network and of each one, so a model writes within them.
 */
export function registerResources(
  server: McpServer,
  client: SocialPublishClient,
  keySource: KeySource,
): void {
  server.registerResource(
    "connected-networks",
    "socialpub://accounts",
    {
      title: "Connected networks",
      description: "The networks this account has connected: handle, followers and health of each.",
      mimeType: "application/json",
    },
    async (uri, extra) => {
      try {
        return json(uri, await client.accounts.list({ signal: extra.signal }));
      } catch (error) {
        const text = errorResult(error, keySource).content[0];
        throw new McpError(
          ErrorCode.InternalError,
          text?.type === "text" ? text.text : "The service failed.",
        );
      }
    },
  );

  server.registerResource(
    "network-rules",
    "socialpub://networks/rules",
    {
      title: "Rules of every network",
      description:
        "Each network's text limit, how it counts length, whether it needs media and which, and the media types accepted.",
      mimeType: "application/json",
    },
    (uri) => json(uri, { networks: NETWORK_IDS.map(networkRules), media_types: MEDIA_TYPES }),
  );

  server.registerResource(
    "network",
    new ResourceTemplate("socialpub://networks/{network}/rules", {
      list: () => ({
        resources: NETWORK_IDS.map((id) => ({
          uri: `socialpub://networks/${id}/rules`,
          name: `${id}-rules`,
          title: `${NETWORK_RULES[id].name} rules`,
          mimeType: "application/json",
        })),
      }),
      complete: { network: (value) => NETWORK_IDS.filter((id) => id.startsWith(value)) },
    }),
    {
      title: "One network's rules",
      description: "One network's text limit, length rule and media needs.",
      mimeType: "application/json",
    },
    (uri, { network }) => {
      if (!isNetworkId(network))
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown network ${String(network)}; use one of ${NETWORK_IDS.join(", ")}.`,
        );
      return json(uri, networkRules(network));
    },
  );
}
