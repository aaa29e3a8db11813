import type { ChildServer } from "./child.ts";

/** Samples a child's RSS every `intervalMs` until stopped; returns the samples, in bytes. */
export function sampleRss(server: ChildServer, intervalMs: number): { stop(): Promise<number[]> } {
  const samples: number[] = [];
  let pending: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    pending = pending.then(async () => {
      samples.push(await server.rss());
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
