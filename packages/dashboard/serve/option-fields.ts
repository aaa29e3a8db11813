import { NETWORK_OPTION_SCHEMAS, type NetworkId } from "@socialpub/core";

/** How the composer offers one option: free text, true/false, a comma-separated list, or a choice. */
export type OptionKind = "text" | "flag" | "list" | { choices: readonly string[] };

/** What of a zod schema's definition this reads: its kind, and an optional's inner schema or an enum's values. */
interface SchemaDef {
  def: { type: string; innerType?: SchemaDef; entries?: Record<string, string | number> };
}

/**
 * Each network's options as the composer offers them, read from the contract's option schemas (the ones
 * the service checks), so the page offers exactly what the API takes. The page bundles no zod: the
 * server puts these in the page beside the network rules.
 */
export function optionFields(): Partial<Record<NetworkId, Record<string, OptionKind>>> {
  const out: Partial<Record<NetworkId, Record<string, OptionKind>>> = {};
  for (const [network, schema] of Object.entries(NETWORK_OPTION_SCHEMAS)) {
    const fields: Record<string, OptionKind> = {};
    for (const [name, field] of Object.entries(schema.shape))
      fields[name] = kindOf(field as unknown as SchemaDef);
    out[network as NetworkId] = fields;
  }
  return out;
}

function kindOf(field: SchemaDef): OptionKind {
  const inner = field.def.type === "optional" && field.def.innerType ? field.def.innerType : field;
  switch (inner.def.type) {
    case "boolean":
      return "flag";
    case "enum":
      return { choices: Object.values(inner.def.entries ?? {}).map(String) };
    case "array":
      return "list";
    default:
      return "text";
  }
}
