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
