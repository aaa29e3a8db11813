// Fails when the committed dist/ is not what a fresh build of the source produces: every file, the
// chunks and source maps included. Runners execute dist/ as committed, so a source change without a
// rebuild would ship the old behaviour (and a stale map would point stack traces at the wrong lines).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "./build.ts";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const committed = join(packageDir, "dist");

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

const fresh = mkdtempSync(join(tmpdir(), "github-action-dist-"));
try {
  await build(fresh);
  const names = [...new Set([...files(fresh), ...files(committed)])].sort();
  const differing = names.filter((name) => read(join(fresh, name)) !== read(join(committed, name)));
  if (differing.length > 0) {
    console.error(
      `packages/github-action/dist/ differs from a fresh build (${differing.join(", ")}).\n` +
        "Run `pnpm --filter @socialpub/github-action build` and commit dist/.",
    );
    process.exit(1);
  }
  console.log(`packages/github-action/dist/ matches a fresh build (${names.length} files).`);
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
