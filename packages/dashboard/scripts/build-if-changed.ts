import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

export interface BuildIfChangedOptions {
  /** Files and folders (read recursively) whose bytes decide what the build produces. */
  readonly inputs: readonly string[];
  /** Paths in the hash are written relative to this folder, so moving the checkout changes nothing. */
  readonly root: string;
  /** Where the hash of the inputs the last build saw is kept: inside the build output, so a deleted or
   * emptied output (which takes the file with it) always means a build. */
  readonly stampFile: string;
  readonly build: () => Promise<void>;
}

/**
 * One hash over every input file's path and bytes, in a fixed order. Reading them costs milliseconds;
 * a build costs seconds.
 */
export function hashInputs(inputs: readonly string[], root: string): string {
  const files: string[] = [];
  for (const input of inputs) {
    if (!existsSync(input)) continue;
    if (statSync(input).isDirectory()) {
      for (const entry of readdirSync(input, { recursive: true, withFileTypes: true })) {
        if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
      }
    } else {
      files.push(input);
    }
  }
  const hash = createHash("sha256");
  for (const file of files.map((f) => relative(root, f).split(sep).join("/")).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** Builds unless the last build saw exactly these inputs; says which it did. */
export async function buildIfChanged(options: BuildIfChangedOptions): Promise<"built" | "unchanged"> {
  const hash = hashInputs(options.inputs, options.root);
  const last = existsSync(options.stampFile) ? readFileSync(options.stampFile, "utf8").trim() : null;
  if (last === hash) return "unchanged";
  await options.build();
  writeFileSync(options.stampFile, `${hash}\n`);
  return "built";
}
