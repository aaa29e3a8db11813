import { globalRegistry, toJSONSchema, type z } from "zod";

type JsonSchema = Record<string, unknown>;

/**
 * A tool's input schema as JSON Schema, from its zod schema: self-contained (the contract's named
 * schemas, such as ScheduleTime and NetworkId, written out where they are used rather than as `$ref`s,
 * which several MCP clients do not follow), and with the contract's documentation overrides applied,
 * so a model reads the same descriptions the OpenAPI document shows.
 */
export function toolInputSchema(schema: z.ZodType): { type: "object"; [key: string]: unknown } {
  const document = toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => applyContractOverride(zodSchema, jsonSchema),
  }) as JsonSchema;
  const defs = (document.$defs ?? {}) as Record<string, JsonSchema>;
  const { $schema: _dialect, $defs: _defs, ...root } = document;
  const inlined = inline(root, defs, []) as JsonSchema;
  if (inlined.type !== "object") throw new TypeError("A tool's input schema must be an object schema.");
  return inlined as { type: "object"; [key: string]: unknown };
}

/**
 * The contract documents a few schemas with an `override` in their metadata (the form zod-openapi
 * reads for the OpenAPI document): apply it here too.
 */
function applyContractOverride(zodSchema: unknown, jsonSchema: JsonSchema): void {
  const override = (globalRegistry.get(zodSchema as z.ZodType) as { override?: unknown } | undefined)
    ?.override;
  if (typeof override === "function") override({ jsonSchema });
  else if (override && typeof override === "object") Object.assign(jsonSchema, override);
}

const REF_PREFIX = "#/$defs/";

/** Replaces every `$ref` into `$defs` with the definition itself (the contract has no recursive schemas). */
function inline(node: unknown, defs: Record<string, JsonSchema>, seen: string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, defs, seen));
  if (node === null || typeof node !== "object") return node;
  const { $ref, ...rest } = node as JsonSchema;
  const out: JsonSchema = {};
  if (typeof $ref === "string" && $ref.startsWith(REF_PREFIX)) {
    const name = $ref.slice(REF_PREFIX.length);
    const target = defs[name];
    if (!target || seen.includes(name)) throw new TypeError(`Cannot inline the schema ${name}.`);
    Object.assign(out, inline(target, defs, [...seen, name]));
  }
  for (const [key, value] of Object.entries(rest)) out[key] = inline(value, defs, seen);
  return unwrapSingleAllOf(out);
}

/** `{description, allOf: [X]}` (how a described reference is written) reads better as X with the description. */
function unwrapSingleAllOf(node: JsonSchema): JsonSchema {
  const allOf = node.allOf;
  if (!Array.isArray(allOf) || allOf.length !== 1) return node;
  const { allOf: _allOf, ...rest } = node;
  return { ...(allOf[0] as JsonSchema), ...rest };
}
