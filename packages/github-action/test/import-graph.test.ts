// The Action's modules import each other without a circle: with one, which module's top level runs
// first depends on where the bundle happens to enter, and a class used before its module ran is
// undefined at run time.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = fileURLToPath(new URL("../src/", import.meta.url));

/** Every module of src/ with the modules of src/ it imports at run time (`import type` runs nothing). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(srcDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    const imports = [...source.matchAll(/^import\s+(?!type\s)[^;]*?from\s+"(\.[^"]+)";/gms)].map((match) =>
      relative(srcDir, resolve(dirname(file), match[1] ?? "")),
    );
    graph.set(relative(srcDir, file), imports);
  }
  return graph;
}

/** One circle as the modules it passes through (the first repeated at the end), or undefined. */
function findCircle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (module: string): string[] | undefined => {
    const at = path.indexOf(module);
    if (at >= 0) return [...path.slice(at), module];
    if (done.has(module)) return undefined;
    path.push(module);
    for (const imported of graph.get(module) ?? []) {
      const circle = visit(imported);
      if (circle) return circle;
    }
    path.pop();
    done.add(module);
    return undefined;
  };
  for (const module of [...graph.keys()].sort()) {
    const circle = visit(module);
    if (circle) return circle;
  }
  return undefined;
}

describe("the Action's modules", () => {
  it("import one another without a circle", () => {
    const graph = importGraph();
    expect(graph.get("main.ts")).toContain("inputs.ts");
    expect(findCircle(graph)?.join(" → ")).toBeUndefined();
  });
});
