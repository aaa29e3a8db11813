/** Every benchmark, in the order `pnpm bench` runs them; each is bench/<name>.ts. */
export const BENCHMARKS = [
  "get-post",
  "create-post",
  "list-posts",
  "prism",
  "scheduler",
  "webhook-delivery",
  "memory",
  "client-overhead",
  "node-adapter",
  "postgres",
  "top-of-hour",
] as const;

export type BenchmarkName = (typeof BENCHMARKS)[number];

export function isBenchmark(name: string): name is BenchmarkName {
  return (BENCHMARKS as readonly string[]).includes(name);
}
