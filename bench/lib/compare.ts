import type { ChildServer } from "./child.ts";
import { type LoadRequest, type LoadResult, load } from "./load.ts";
import { round } from "./result.ts";

export interface Contender {
  name: string;
  server: ChildServer;
  /** The request each connection sends to this contender; by default the comparison's own. */
  request?: (connection: number) => LoadRequest;
}

export interface CompareOptions {
  contenders: Contender[];
  request: (connection: number) => LoadRequest;
  connections: number;
  /** Length of each measured round, per contender. */
  seconds: number;
  /** Unmeasured load first, per contender: JIT, caches, connection setup. */
  warmupSeconds: number;
  rounds: number;
  /** Runs before every round of every contender (e.g. resetting a usage counter between rounds). */
  beforeRound?: () => Promise<void> | void;
}

export interface Compared {
  /** Every round, by contender name. */
  rounds: Record<string, LoadResult[]>;
  /** The round with the median throughput, by contender name. */
  median: Record<string, LoadResult>;
}

/**
 * Loads each contender in turn with the same requests. Rounds alternate the order, so a change in the
 * machine's load during the run hits every contender alike; each contender's figure is its median round.
 */
export async function compare(options: CompareOptions): Promise<Compared> {
  const { contenders, connections } = options;
  const requestOf = (c: Contender) => c.request ?? options.request;
  for (const contender of contenders) {
    await options.beforeRound?.();
    await load({
      url: contender.server.url,
      connections,
      seconds: options.warmupSeconds,
      request: requestOf(contender),
    });
  }
  const rounds: Record<string, LoadResult[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
  for (let r = 0; r < options.rounds; r++) {
    const order = r % 2 === 0 ? contenders : [...contenders].reverse();
    for (const contender of order) {
      await options.beforeRound?.();
      const result = await load({
        url: contender.server.url,
        connections,
        seconds: options.seconds,
        request: requestOf(contender),
      });
      rounds[contender.name]!.push(result);
      console.log(
        `    ${contender.name}: ${result.requests_per_s.toLocaleString("en-US")} req/s, p99 ${result.latency_ms.p99} ms`,
      );
    }
  }
  const median = Object.fromEntries(
    Object.entries(rounds).map(([name, results]) => [name, medianByThroughput(results)]),
  );
  return { rounds, median };
}

export function medianByThroughput(results: LoadResult[]): LoadResult {
  const sorted = [...results].sort((a, b) => a.requests_per_s - b.requests_per_s);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export const ratioOf = (figure: number, baseline: number) => round(figure / baseline, 4);
