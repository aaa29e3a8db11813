// What holds a server process's memory, read inside it: the resident set split as the kernel counts it
// (anonymous memory — V8's heap, malloc, SQLite's page cache — against file pages and shared memory,
// where SQLite's mmap of the database and its WAL index would show), and V8's heap by space. All in
// bytes, as counters of bench/lib/child.ts.
import { readFileSync } from "node:fs";
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";

export function memoryBreakdown(): Record<string, number> {
  const out: Record<string, number> = {};
  const status = readFileSync("/proc/self/status", "utf8");
  for (const field of ["RssAnon", "RssFile", "RssShmem"]) {
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1];
    if (kb !== undefined) out[field.replace(/^Rss/, "rss_").toLowerCase()] = Number(kb) * 1024;
  }
  const heap = getHeapStatistics();
  out.v8_total_heap = heap.total_heap_size;
  out.v8_used_heap = heap.used_heap_size;
  out.v8_malloced = heap.malloced_memory;
  out.v8_external = heap.external_memory;
  for (const space of getHeapSpaceStatistics()) {
    out[`v8_space_${space.space_name.replace(/_space$/, "")}`] = space.space_size;
  }
  return out;
}
