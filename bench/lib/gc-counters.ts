// What a server's garbage collections cost and why, read inside it with V8's GC profiler: how many
// young-generation collections (scavenges) and full ones ran, and how many bytes the scavenges copied
// into the old generation — objects that outlived a young collection, which then wait there for a full
// collection. A request whose objects die young adds nothing to that; one whose objects are kept past
// a scavenge (docs/performance.md, "What a request leaves in the old generation") adds what they weigh.
// Counters of bench/lib/child.ts, in bytes and counts since the server started.
import { GCProfiler } from "node:v8";

interface SpaceStats {
  spaceName: string;
  spaceUsedSize: number;
}
interface GcRecord {
  gcType: string;
  beforeGC: { heapSpaceStatistics: SpaceStats[] };
  afterGC: { heapSpaceStatistics: SpaceStats[] };
}

const oldSpaceUsed = (spaces: SpaceStats[]) =>
  spaces.find((space) => space.spaceName === "old_space")?.spaceUsedSize ?? 0;

/** Starts counting; the function returned reads the counts so far (and drains the profiler's records). */
export function watchGarbageCollection(): () => Record<string, number> {
  const totals = { gc_scavenges: 0, gc_full: 0, gc_promoted_bytes: 0 };
  let profiler = new GCProfiler();
  profiler.start();
  return () => {
    const records = (profiler.stop()?.statistics ?? []) as GcRecord[];
    profiler = new GCProfiler();
    profiler.start();
    for (const record of records) {
      if (record.gcType === "Scavenge") {
        totals.gc_scavenges++;
        totals.gc_promoted_bytes += Math.max(
          0,
          oldSpaceUsed(record.afterGC.heapSpaceStatistics) -
            oldSpaceUsed(record.beforeGC.heapSpaceStatistics),
        );
      } else if (record.gcType === "MarkSweepCompact") {
        totals.gc_full++;
      }
    }
    return { ...totals };
  };
}
