// Bundles the action with rolldown: `node scripts/build.ts [outDir] [--report]` (default dist/).
// A runner executes dist/index.js as it is committed, with no install step, so everything it imports
// (the ESM-only @actions packages and @socialpub/core included) must be in dist/. The bundle is
// minified, with a source map per file (positions and source paths, not the sources' text) that
// src/index.ts turns on, so a stack trace names the file and line of the source. Modules a run may not
// need (direct mode, the client of a deployed service) are chunks of their own, loaded when a run uses
// them. --report lists what takes the room: the bytes each package adds, largest first.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { type OutputChunk, rolldown } from "rolldown";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
/** Where the committed bundle lives: source map paths are relative to it wherever the build writes. */
const committedDir = join(packageDir, "dist");

/** The package a bundled module belongs to: its name and folder, from the last node_modules in its path. */
function packageOf(moduleId: string): { name: string; dir: string } | undefined {
  const path = moduleId.replace(/^\0+/, "").split("?")[0] ?? "";
  const at = path.lastIndexOf(`${sep}node_modules${sep}`);
  if (at < 0) {
    // A workspace package (@socialpub/core, @socialpub/networks), bundled from its source.
    const match = /^(.*[\\/]packages[\\/][^\\/]+)[\\/]/.exec(path);
    if (!match?.[1] || match[1] === packageDir) return undefined;
    return { name: readPackageJson(match[1]).name, dir: match[1] };
  }
  const rest = path.slice(at + "/node_modules/".length).split(sep);
  const segments = rest[0]?.startsWith("@") ? 2 : 1;
  const dir = path.slice(0, at + "/node_modules/".length) + rest.slice(0, segments).join(sep);
  return { name: rest.slice(0, segments).join("/"), dir };
}

function readPackageJson(dir: string): { name: string; license?: string } {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
}

/** licenses.txt: every bundled package, its license and its license file's text, by name. */
function licenses(chunks: OutputChunk[]): string {
  const dirs = new Map<string, string>();
  for (const chunk of chunks) {
    for (const id of chunk.moduleIds) {
      const found = packageOf(id);
      if (found && !dirs.has(found.name)) dirs.set(found.name, found.dir);
    }
  }
  return [...dirs.keys()]
    .sort()
    .map((name) => {
      const dir = dirs.get(name) ?? "";
      const license = readPackageJson(dir).license ?? "";
      const file = readdirSync(dir).find((entry) => /^(licen[cs]e|copying)(\.|$)/i.test(entry));
      const text = file ? readFileSync(join(dir, file), "utf8").trim() : "";
      return [name, license, text].filter((part) => part !== "").join("\n");
    })
    .join("\n\n")
    .concat("\n");
}

/** The bundled bytes (before minifying) of each package, or of the Action's own source, largest first. */
function report(chunks: OutputChunk[]): string {
  const sizes = new Map<string, number>();
  for (const chunk of chunks) {
    for (const [id, module] of Object.entries(chunk.modules)) {
      const name = packageOf(id)?.name ?? "@socialpub/github-action";
      sizes.set(name, (sizes.get(name) ?? 0) + module.renderedLength);
    }
  }
  return [...sizes]
    .sort((a, b) => b[1] - a[1])
    .map(([name, size]) => `${(size / 1024).toFixed(0).padStart(7)} KB  ${name}`)
    .join("\n");
}

export async function build(outDir: string): Promise<OutputChunk[]> {
  rmSync(outDir, { recursive: true, force: true });
  const bundle = await rolldown({
    input: { index: join(packageDir, "src", "index.ts") },
    cwd: packageDir,
    platform: "node",
    logLevel: "warn",
  });
  try {
    const { output } = await bundle.write({
      dir: outDir,
      format: "esm",
      entryFileNames: "[name].js",
      // The chunks a run loads as it needs them, out of the way of the entry; named by their first
      // module, without a hash, so a rebuild that changes one shows in git as a change to that file.
      chunkFileNames: "chunks/[name].js",
      // Names kept, so a stack trace's frames name their functions as the source does.
      minify: {
        mangle: { keepNames: true },
        compress: { keepNames: { function: true, class: true } },
        codegen: true,
      },
      // Licenses are in licenses.txt, whole; the comments would only repeat parts of them.
      comments: false,
      sourcemap: true,
      sourcemapExcludeSources: true,
      sourcemapPathTransform: (source, sourcemapPath) => {
        const mapDir = dirname(sourcemapPath);
        const committedMapDir = join(committedDir, relative(outDir, mapDir));
        return relative(committedMapDir, resolve(mapDir, source)).split(sep).join("/");
      },
    });
    const chunks = output.filter((file): file is OutputChunk => file.type === "chunk");
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, "package.json"), `${JSON.stringify({ type: "module" }, null, 2)}\n`);
    writeFileSync(join(outDir, "licenses.txt"), licenses(chunks));
    return chunks;
  } finally {
    await bundle.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outDir = resolve(packageDir, args.find((arg) => !arg.startsWith("--")) ?? "dist");
  const chunks = await build(outDir);
  if (args.includes("--report")) console.log(report(chunks));
}
