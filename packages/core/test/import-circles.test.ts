import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { importCircles } from "../scripts/import-circles.ts";

const src = fileURLToPath(new URL("../src", import.meta.url));

describe("import circles", () => {
  it("no file of core loads, through its imports, a file that loads it back (type-only imports aside)", () => {
    expect(importCircles(src)).toEqual([]);
  });

  describe("what counts as a circle", () => {
    let dir: string;
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it("a value import either way, or through a third file, is one; import type and export type are not", async () => {
      dir = await mkdtemp(join(tmpdir(), "socialpub-circles-"));
      const files: Record<string, string> = {
        "a.ts": `import { b } from "./b.ts";\nexport const a = () => b;`,
        "b.ts": `import { a } from "./a.ts";\nexport const b = () => a;`,
        "c.ts": `import { d } from "./d.ts";\nexport const c = 1 + d;`,
        "d.ts": `export { e as d } from "./e.ts";`,
        "e.ts": `import { type C } from "./c.ts";\nexport const e = 1; export type E = C;`,
        "typed-1.ts": `import type { T2 } from "./typed-2.ts";\nexport type T1 = T2 | 1;`,
        "typed-2.ts": `import { t3 } from "./typed-3.ts";\nexport type T2 = typeof t3;`,
        "typed-3.ts": `export type { T1 } from "./typed-1.ts";\nexport const t3 = 3;`,
      };
      for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
      expect(importCircles(dir)).toEqual([
        ["a.ts", "b.ts"],
        ["c.ts", "d.ts", "e.ts"],
      ]);
    });
  });
});
