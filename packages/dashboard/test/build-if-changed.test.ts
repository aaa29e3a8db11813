import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DASHBOARD_INPUTS, DASHBOARD_STAMP } from "../scripts/build.ts";
import { buildIfChanged } from "../scripts/build-if-changed.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A package-shaped folder with sources and a build that writes dist/ the way vite does (emptying it). */
function project() {
  const root = mkdtempSync(join(tmpdir(), "socialpub-build-"));
  dirs.push(root);
  mkdirSync(join(root, "src", "lib"), { recursive: true });
  writeFileSync(join(root, "index.html"), "<div id=app></div>");
  writeFileSync(join(root, "src", "main.tsx"), "render()");
  writeFileSync(join(root, "src", "lib", "time.ts"), "export const t = 1;");
  let builds = 0;
  const dist = join(root, "dist");
  const run = () =>
    buildIfChanged({
      inputs: [join(root, "index.html"), join(root, "src"), join(root, "public-missing")],
      root,
      stampFile: join(dist, ".source-hash"),
      build: async () => {
        builds++;
        rmSync(dist, { recursive: true, force: true });
        mkdirSync(dist);
        writeFileSync(join(dist, "index.html"), "built");
      },
    });
  return { root, dist, run, builds: () => builds };
}

describe("building the dashboard only when its sources changed", () => {
  it("builds the first time, skips a second start, and rebuilds after a source changes", async () => {
    const p = project();
    expect(await p.run()).toBe("built");
    expect(await p.run()).toBe("unchanged");
    expect(p.builds()).toBe(1);

    writeFileSync(join(p.root, "src", "lib", "time.ts"), "export const t = 2;");
    expect(await p.run()).toBe("built");
    expect(await p.run()).toBe("unchanged");
    expect(p.builds()).toBe(2);
  });

  it("rebuilds when a source file is added, renamed or removed, or the output was deleted", async () => {
    const p = project();
    await p.run();
    writeFileSync(join(p.root, "src", "extra.ts"), "");
    expect(await p.run()).toBe("built");
    rmSync(join(p.root, "src", "extra.ts"));
    writeFileSync(join(p.root, "src", "other.ts"), "");
    expect(await p.run()).toBe("built");
    rmSync(join(p.root, "src", "other.ts"));
    expect(await p.run()).toBe("built");
    rmSync(p.dist, { recursive: true });
    expect(await p.run()).toBe("built");
    expect(p.builds()).toBe(5);
  });

  it("hashes the page's real inputs, the bundled core source included, and keeps the stamp in dist/", () => {
    const relativeInputs = DASHBOARD_INPUTS.map((path) => path.replaceAll("\\", "/"));
    for (const input of ["packages/dashboard/src", "packages/dashboard/index.html", "packages/core/src"]) {
      expect(relativeInputs.some((path) => path.endsWith(input))).toBe(true);
    }
    expect(DASHBOARD_STAMP.replaceAll("\\", "/")).toMatch(/packages\/dashboard\/dist\/\.source-hash$/);
  });
});
