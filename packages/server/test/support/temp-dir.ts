import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh folder for one test's database files; `remove()` deletes it with everything in it. */
export function tempDir(prefix = "socialpub-server-"): {
  path: string;
  file(name: string): string;
  remove(): void;
} {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    file: (name) => join(path, name),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}
