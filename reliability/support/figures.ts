import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, inject } from "vitest";

/** What one check did, added up over the suite and printed at its end. */
export interface Figures {
  /** HTTP requests sent (answered or not). */
  requests: number;
  /** Faults injected: processes killed, servers stopped, receivers down, malformed inputs. */
  faults: number;
  /** Posts (or events) whose presence and shape were checked after a fault. */
  postsChecked: number;
  /** Acknowledged work that was not there afterwards. Must stay 0. */
  lost: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    figuresDir: string;
  }
}

/**
 * The figures of one test file. When the file ends they are written for the global teardown to add
 * up, and `lost` is asserted to be 0: a file that lost anything fails even if no other assertion did.
 */
export function useFigures(name: string): Figures {
  const figures: Figures = { requests: 0, faults: 0, postsChecked: 0, lost: 0 };
  afterAll(() => {
    writeFileSync(join(inject("figuresDir"), `${name}.json`), JSON.stringify(figures));
    expect(figures.lost, `${name}: acknowledged work lost`).toBe(0);
  });
  return figures;
}

export function addFigures(total: Figures, more: Figures): Figures {
  return {
    requests: total.requests + more.requests,
    faults: total.faults + more.faults,
    postsChecked: total.postsChecked + more.postsChecked,
    lost: total.lost + more.lost,
  };
}

export function describeFigures(f: Figures): string {
  return `${f.requests} requests tried, ${f.faults} faults injected, ${f.postsChecked} posts checked, lost = ${f.lost}`;
}
