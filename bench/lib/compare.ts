import type { ChildServer } from "./child.ts";
import { type LoadOptions, type LoadRequest, type LoadResult, load } from "./load.ts";
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

/** A measured round, with the server's CPU time per answered request when the server reports it. */
export interface Round extends LoadResult {
  /** CPU time the server process spent per answered request (µs); null when it does not report it. */
  server_cpu_us_per_request: number | null;
  /**
   * Bytes V8's young collections copied into the old generation, per answered request, and the full
   * collections of the round (bench/lib/gc-counters.ts); null when the server does not report them.
   */
  server_promoted_bytes_per_request: number | null;
  server_full_gcs: number | null;
}

export interface Compared {
  /** Every round, by contender name. */
  rounds: Record<string, Round[]>;
  /** The round with the median throughput, by contender name. */
  median: Record<string, Round>;
}

/** One round of load on `server`, with what the server itself counted while it ran. */
export async function measuredRound(server: ChildServer, options: Omit<LoadOptions, "url">): Promise<Round> {
  const before = (await server.stats()).counters;
  const loaded = await load({ url: server.url, ...options });
  const after = (await server.stats()).counters;
  const grew = (name: string) =>
    before[name] === undefined || after[name] === undefined ? null : after[name] - before[name];
  const perRequest = (name: string) => {
    const total = grew(name);
    return total === null ? null : Math.round(total / loaded.requests);
  };
  return {
    ...loaded,
    server_cpu_us_per_request: perRequest("cpu_us"),
    server_promoted_bytes_per_request: perRequest("gc_promoted_bytes"),
    server_full_gcs: grew("gc_full"),
  };
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
  const rounds: Record<string, Round[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
  for (let r = 0; r < options.rounds; r++) {
    const order = r % 2 === 0 ? contenders : [...contenders].reverse();
    for (const contender of order) {
      await options.beforeRound?.();
      const result = await measuredRound(contender.server, {
        connections,
        seconds: options.seconds,
        request: requestOf(contender),
      });
      rounds[contender.name]!.push(result);
      const cpu = result.server_cpu_us_per_request;
      const promoted = result.server_promoted_bytes_per_request;
      console.log(
        `    ${contender.name}: ${result.requests_per_s.toLocaleString("en-US")} req/s, p99 ${result.latency_ms.p99} ms` +
          (cpu === null ? "" : `, ${cpu} µs server CPU per request`) +
          (promoted === null
            ? ""
            : `, ${promoted} B promoted per request, ${result.server_full_gcs} full GCs`),
      );
    }
  }
  const median = Object.fromEntries(
    Object.entries(rounds).map(([name, results]) => [name, medianByThroughput(results)]),
  );
  return { rounds, median };
}

export function medianByThroughput<T extends LoadResult>(results: T[]): T {
  const sorted = [...results].sort((a, b) => a.requests_per_s - b.requests_per_s);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export const ratioOf = (figure: number, baseline: number) => round(figure / baseline, 4);
