// The import circles among a folder's TypeScript files: files that import one another, directly or
// through others, when they are loaded. An `import type` or `export type` is erased before anything
// runs, so it makes no circle; every other static import does (under verbatimModuleSyntax even
// `import { type A } from "./a.ts"` stays as `import {} from "./a.ts"` and loads the file).
// Used by test/import-circles.test.ts; `node scripts/import-circles.ts [folder]` prints them.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** Every .ts file under `dir` (tests left out), as absolute paths. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The relative files `file` loads when it runs: its static imports and re-exports, less type-only ones. */
export function runtimeImports(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.isTypeOnly) continue;
      specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) continue;
      specifier = statement.moduleSpecifier;
    }
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith(".")) {
      out.push(resolve(dirname(file), specifier.text));
    }
  }
  return out;
}

/**
 * The circles among the files under `dir`, each as the paths (relative to `dir`) of one strongly
 * connected group of files, sorted; a file that imports itself is a circle of one.
 */
export function importCircles(dir: string): string[][] {
  const files = sourceFiles(dir);
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    edges.set(
      file,
      runtimeImports(file, readFileSync(file, "utf8")).filter((target) => known.has(target)),
    );
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || edges.get(file)!.includes(file)) {
      circles.push(group.map((f) => relative(dir, f)).sort());
    }
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "../src"));
  const circles = importCircles(dir);
  for (const circle of circles) console.log(circle.join(" ↔ "));
  console.log(`${circles.length} import circle(s) under ${dir}`);
  process.exitCode = circles.length > 0 ? 1 : 0;
}
