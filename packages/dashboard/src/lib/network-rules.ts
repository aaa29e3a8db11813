import type { NetworkId, NetworkRule } from "../api/types.ts";

/** Must match NETWORK_RULES_ELEMENT_ID in serve/network-rules.ts. */
const ELEMENT_ID = "socialpub-networks";

export type NetworkRules = ReadonlyMap<NetworkId, NetworkRule>;

/** The networks' text rules the server put in the page, in the contract's order. */
export function readNetworkRules(doc: Document): NetworkRules {
  const text = doc.getElementById(ELEMENT_ID)?.textContent;
  if (!text) throw new Error("The page has no network rules; it must be served by the socialpub server.");
  return parseNetworkRules(text);
}

export function parseNetworkRules(json: string): NetworkRules {
  const rules = JSON.parse(json) as NetworkRule[];
  return new Map(rules.map((rule) => [rule.id, rule]));
}

export function networkName(rules: NetworkRules, id: string): string {
  return rules.get(id as NetworkId)?.name ?? id;
}

/**
 * An API message with the given networks called by their names: the API names a network by its id
 * (`poll: linkedin takes no poll: …`), the page by the name its checkboxes show. Only a whole word is
 * replaced: not part of a field (`captions.linkedin`, `options.x`), an address or a longer word.
 */
export function withNetworkNames(
  message: string,
  rules: NetworkRules,
  networks: readonly NetworkId[],
): string {
  let named = message;
  for (const id of networks) {
    const name = rules.get(id)?.name;
    if (!name || name === id) continue;
    named = named.replace(new RegExp(`(?<![\\w.\\-/\\[\`])${id}(?![\\w\\-/\\]\`]|\\.\\w)`, "g"), name);
  }
  return named;
}
