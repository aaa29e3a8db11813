// Publishes the workspace's public packages (n8n-nodes-socialpub and @socialpub/*, every package under
// packages/ that is not private) whose version is not on npm yet. Run by .github/workflows/release.yml
// after `changeset version` has set the versions and the packages are built.
//
// Each package is packed with pnpm, as it is meant to be published: workspace:* versions resolved,
// publishConfig applied, and the workspace's beforePacking hook (.pnpmfile.cjs) run. The tarball is
// then published with `npm publish --provenance --access public`: npm signs a provenance statement
// with the GitHub Actions job's identity (the job needs `id-token: write`), and with trusted publishing
// set up for the package on npm it needs no token either (a package's first release, before it can
// have a trusted publisher, authenticates with NODE_AUTH_TOKEN). n8n lists a community node only when its
// package was published that way.
//
//   node scripts/publish-packages.ts            publish
//   node scripts/publish-packages.ts --dry-run  pack and run `npm publish --dry-run`, publish nothing
//
// Prints one `name@version` line per package published; with GITHUB_OUTPUT set, also writes
// `published` (true or false) and `tags` (those names, space-separated) there for the next steps.
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  repository?: unknown;
  dependencies?: Record<string, string>;
}

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dryRun = process.argv.includes("--dry-run");

/** The public packages under packages/, each after the workspace packages it depends on. */
function publicPackages(): Array<{ dir: string; manifest: Manifest }> {
  const all = readdirSync(join(root, "packages")).map((name) => {
    const dir = join(root, "packages", name);
    return { dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest };
  });
  const published = all.filter((pkg) => !pkg.manifest.private);
  const ordered: typeof published = [];
  const visit = (pkg: (typeof published)[number]) => {
    if (ordered.includes(pkg)) return;
    for (const dependency of Object.keys(pkg.manifest.dependencies ?? {})) {
      const internal = published.find((other) => other.manifest.name === dependency);
      if (internal) visit(internal);
    }
    ordered.push(pkg);
  };
  for (const pkg of published) visit(pkg);
  return ordered;
}

/** Whether npm already has this exact version (npm view answers E404 for a name it does not know). */
function isOnNpm({ name, version }: Manifest): boolean {
  const result = spawnSync("npm", ["view", `${name}@${version}`, "version", "--json"], { encoding: "utf8" });
  if (result.status === 0) return result.stdout.trim() !== "";
  if (/E404|404 Not Found/.test(result.stderr)) return false;
  throw new Error(`npm view ${name}@${version} failed:\n${result.stderr}`);
}

const scratch = mkdtempSync(join(tmpdir(), "socialpub-publish-"));
const tags: string[] = [];
try {
  for (const { dir, manifest } of publicPackages()) {
    const tag = `${manifest.name}@${manifest.version}`;
    // npm refuses a provenance statement for a package whose repository is not the one that built it.
    if (!manifest.repository) throw new Error(`${manifest.name}: package.json has no "repository"`);
    if (isOnNpm(manifest)) {
      console.log(`${tag} is on npm already`);
      continue;
    }
    const packed = execFileSync("pnpm", ["pack", "--json", "--pack-destination", scratch], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    const { filename } = JSON.parse(packed) as { filename: string };
    const args = ["publish", filename, "--access", "public"];
    execFileSync("npm", dryRun ? [...args, "--dry-run"] : [...args, "--provenance"], {
      cwd: dir,
      stdio: "inherit",
    });
    tags.push(tag);
    console.log(dryRun ? `${tag} would be published` : tag);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (process.env.GITHUB_OUTPUT && !dryRun) {
  appendFileSync(process.env.GITHUB_OUTPUT, `published=${tags.length > 0}\ntags=${tags.join(" ")}\n`);
}
