import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

export interface Machine {
  /** Cores the process may use (what `nproc` prints). */
  cores: number;
  cpu: string;
  ram_gib: number;
  node: string;
  platform: string;
  /** 1-minute load average when the benchmark started: a busy machine gives noisy figures. */
  load_1m: number;
}

export function describeMachine(): Machine {
  return {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    ram_gib: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    load_1m: Math.round(loadavg()[0]! * 100) / 100,
  };
}
