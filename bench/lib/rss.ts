import type { ChildServer } from "./child.ts";

export interface MemorySample {
  /** Resident set size, in bytes. */
  rss: number;
  /** The JavaScript heap in use, in bytes, where the child reports it (0 otherwise). */
  heapUsed: number;
  /** Everything else the child reported with it (bench/lib/memory-breakdown.ts for the service server). */
  counters: Record<string, number>;
}

/**
 * Samples a child's memory every `intervalMs` until stopped. The heap in use is read beside RSS: RSS
 * that grows while the heap in use rises and falls is V8 keeping space it freed, not live data.
 */
export function sampleMemory(server: ChildServer, intervalMs: number): { stop(): Promise<MemorySample[]> } {
  const samples: MemorySample[] = [];
  let pending: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    pending = pending.then(async () => {
      const stats = await server.stats();
      samples.push({ rss: stats.rss, heapUsed: stats.counters.heap_used ?? 0, counters: stats.counters });
    });
  }, intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await pending;
      return samples;
    },
  };
}
