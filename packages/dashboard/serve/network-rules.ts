import { NETWORK_IDS, NETWORK_RULES } from "@socialpub/core";
import { optionFields } from "./option-fields.ts";

/** The id of the JSON block the page reads the networks' text rules from. */
export const NETWORK_RULES_ELEMENT_ID = "socialpub-networks";

/**
 * Puts the running service's text rules (limits and how each network counts) into the page as a JSON
 * data block, so the page measures text exactly as the service adapts it. A data block is not a
 * script: the Content-Security-Policy's script-src does not apply to it.
 */
export function withNetworkRules(html: string): string {
  // Each rule with the network's options as the composer offers them (from the contract's schemas).
  const options = optionFields();
  const rules = NETWORK_IDS.map((id) => ({
    ...NETWORK_RULES[id],
    ...(options[id] && { options: options[id] }),
  }));
  // "<" escaped so no value can close the element.
  const json = JSON.stringify(rules).replaceAll("<", "\\u003c");
  const block = `<script type="application/json" id="${NETWORK_RULES_ELEMENT_ID}">${json}</script>`;
  if (!html.includes("</head>")) throw new Error("The dashboard's index.html has no </head>.");
  return html.replace("</head>", `${block}\n</head>`);
}
