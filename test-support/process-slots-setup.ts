import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * vitest global setup: one directory of process slots for this run (test-support/process-slots.ts),
 * handed to every worker of every project through the environment they inherit.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "socialpub-process-slots-"));
  process.env.SOCIALPUB_PROCESS_SLOT_DIR = dir;
  return () => rm(dir, { recursive: true, force: true });
}
