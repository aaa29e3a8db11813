import { type ParseArgsOptionsConfig, parseArgs } from "node:util";

/**
 * A bench's own options, declared as `parseArgs` declares them, and apart from them the Node options
 * given for the server it measures, as Node takes them (`--name` or `--name=value`). Anything else is
 * refused, so a value given apart from its option never reaches the server unnoticed.
 */
export function ownAndNodeOptions(
  own: ParseArgsOptionsConfig,
  argv: readonly string[] = process.argv.slice(2),
): { values: Record<string, string | boolean | undefined>; nodeOptions: string[] } {
  const { values, tokens } = parseArgs({
    args: [...argv],
    options: own,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const nodeOptions: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") {
      throw new Error(
        `"${token.value}" is not a Node option; give options with their value, like --heap-growing-percent=50`,
      );
    }
    if (token.kind === "option" && !Object.hasOwn(own, token.name)) {
      nodeOptions.push(token.inlineValue ? `${token.rawName}=${token.value}` : token.rawName);
    }
  }
  return { values: values as Record<string, string | boolean | undefined>, nodeOptions };
}
