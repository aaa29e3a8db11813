/*
 * The `templates` input: a YAML map from a network id to that network's own template, e.g.
 *   x: "{name} is out: {url}"
 *   linkedin: "{repo} {name}\n{url}\n\n{body}"
 * Each becomes the text that network publishes (the API's `captions`); networks without one get
 * `template`. Checked before anything is posted, like `template`.
 */
import { isNetworkId, NETWORK_IDS, type NetworkId } from "@socialpub/core";
import { parse } from "yaml";
import { InputError } from "./input-error.ts";
import { parseTemplate, TemplateError, type TemplatePart } from "./template.ts";

export type NetworkTemplates = Partial<Record<NetworkId, TemplatePart[]>>;

export function parseNetworkTemplates(value: string): NetworkTemplates {
  if (value.trim() === "") return {};
  let map: unknown;
  try {
    map = parse(value);
  } catch (error) {
    throw new InputError(
      `The \`templates\` input is not YAML (${(error as Error).message.split("\n")[0]}). Write one \`network: template\` per line, e.g. \`x: "{name} is out: {url}"\`.`,
    );
  }
  if (typeof map !== "object" || map === null || Array.isArray(map)) {
    throw new InputError(
      'The `templates` input must be a map of network to template, e.g. `x: "{name} is out: {url}"`.',
    );
  }
  const out: NetworkTemplates = {};
  for (const [key, template] of Object.entries(map)) {
    const id = key.trim().toLowerCase();
    if (!isNetworkId(id)) {
      throw new InputError(
        `The \`templates\` input names an unknown network "${key}". Use any of: ${NETWORK_IDS.join(", ")}.`,
      );
    }
    if (typeof template !== "string" || template.trim() === "") {
      throw new InputError(
        `The \`templates\` input's ${id} is not text: give that network's template, or remove the line to use \`template\`.`,
      );
    }
    try {
      out[id] = parseTemplate(template);
    } catch (error) {
      if (error instanceof TemplateError)
        throw new TemplateError(
          error.message.replace("The `template` input", `The \`templates\` input's ${id}`),
        );
      throw error;
    }
  }
  return out;
}
