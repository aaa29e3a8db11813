import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The bound is tried on a directory of its own with two slots, so the run's own slots are not touched.
let dir: string;
let slots: typeof import("../../../test-support/process-slots.ts");
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "process-slots-test-"));
  process.env.SOCIALPUB_PROCESS_SLOT_DIR = dir;
  process.env.SOCIALPUB_PROCESS_SLOTS = "2";
  slots = await import("../../../test-support/process-slots.ts");
});
afterAll(async () => {
  delete process.env.SOCIALPUB_PROCESS_SLOT_DIR;
  delete process.env.SOCIALPUB_PROCESS_SLOTS;
  await rm(dir, { recursive: true, force: true });
});

/** A process that lives until it is killed, standing in for another test worker holding a slot. */
async function otherHolder() {
  const child = spawn(process.execPath, ["-e", "process.stdin.resume()"], {
    stdio: ["pipe", "ignore", "ignore"],
  });
  await once(child, "spawn");
  return child;
}

describe("the suite-wide bound on child processes", () => {
  it("waits while other processes hold every slot, and takes over a slot whose holder died", async () => {
    const holders = [await otherHolder(), await otherHolder()];
    try {
      await writeFile(join(dir, "slot-0"), String(holders[0]!.pid));
      await writeFile(join(dir, "slot-1"), String(holders[1]!.pid));
      let ran = false;
      const waiting = slots.withProcessSlot(async () => {
        ran = true;
      });
      // Both slots are held by live processes: nothing runs until one of them ends.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(ran).toBe(false);
      holders[1]!.kill("SIGKILL");
      await once(holders[1]!, "exit");
      await waiting;
      expect(ran).toBe(true);
    } finally {
      for (const holder of holders) holder.kill("SIGKILL");
    }
  });

  it("never runs more than its slots at once, and a holder that starts another holder does not wait", async () => {
    const TASKS = 6;
    let running = 0;
    let started = 0;
    let most = 0;
    const wakers: (() => void)[] = [];
    // Each holder stays until a second one runs beside it (or none is left to come), so the bound is reached.
    const company = () =>
      new Promise<void>((resolve) => {
        wakers.push(resolve);
        if (running >= 2 || started === TASKS) for (const wake of wakers.splice(0)) wake();
      });
    await Promise.all(
      Array.from({ length: TASKS }, () =>
        slots.withProcessSlot(async () => {
          running++;
          started++;
          most = Math.max(most, running);
          expect(await slots.slotsHeld()).toBeLessThanOrEqual(slots.PROCESS_SLOTS);
          // Nested: runs inside the outer holder's slot instead of waiting for a second one.
          await slots.withProcessSlot(async () => {});
          await company();
          running--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(slots.mostProcessesAtOnce()).toBe(2);
    expect(await slots.slotsHeld()).toBe(0);
  });
});
