import type { NetworkId, NetworkRule } from "../api/types.ts";

/** Must match NETWORK_RULES_ELEMENT_ID in serve/network-rules.ts. */
const ELEMENT_ID = "socialpub-networks";

/** How the composer offers one option (serve/option-fields.ts puts them in the page). */
export type OptionKind = "text" | "flag" | "list" | { choices: readonly string[] };

/** A network's rule as the page has it: the contract's, with the network's options for the composer. */
export type PageRule = NetworkRule & { options?: Readonly<Record<string, OptionKind>> };

export type NetworkRules = ReadonlyMap<NetworkId, PageRule>;

/** The networks' text rules the server put in the page, in the contract's order. */
export function readNetworkRules(doc: Document): NetworkRules {
  const text = doc.getElementById(ELEMENT_ID)?.textContent;
  if (!text) throw new Error("The page has no network rules; it must be served by the socialpub server.");
  return parseNetworkRules(text);
}

export function parseNetworkRules(json: string): NetworkRules {
  const rules = JSON.parse(json) as PageRule[];
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
