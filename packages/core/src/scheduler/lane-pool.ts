/**
 * Work that mostly waits (on a network's answer), run `limit` items at once as they come: unlike a
 * batch run to its end, a free slot takes the next item at once, so one slow lane does not hold up the
 * rest. Items that share a lane run one after the other, in the order added. `work` must not throw (the
 * caller catches per item).
 *
 * What it holds is bounded by what the caller adds: `held` counts items added and not yet done (the
 * running ones and those waiting for a slot or for their lane), and a caller adds more only after
 * `roomFor` says there is room.
 */
export class LanePool<T> {
  readonly #limit: number;
  readonly #laneOf: (item: T) => string;
  readonly #work: (item: T) => Promise<void>;
  /** Lanes with work added and not done, each its items in order (the first is running or waiting for a slot). */
  readonly #lanes = new Map<string, T[]>();
  /** Lanes whose first item waits for a slot, in the order they became ready. */
  readonly #ready: string[] = [];
  #running = 0;
  #held = 0;
  #changed: (() => void) | null = null;

  constructor(limit: number, laneOf: (item: T) => string, work: (item: T) => Promise<void>) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`a pool's limit must be 1 or more; it is ${limit}`);
    this.#limit = limit;
    this.#laneOf = laneOf;
    this.#work = work;
  }

  /** Items added and not yet done. */
  get held(): number {
    return this.#held;
  }

  /** Items running now. */
  get running(): number {
    return this.#running;
  }

  add(item: T): void {
    this.#held += 1;
    const key = this.#laneOf(item);
    const lane = this.#lanes.get(key);
    if (lane) {
      lane.push(item);
      return;
    }
    this.#lanes.set(key, [item]);
    this.#ready.push(key);
    this.#start();
  }

  /** Resolves once no more than `most` items are held. */
  async roomFor(most: number): Promise<void> {
    while (this.#held > most) await this.#nextChange();
  }

  /** Resolves once every item added is done. */
  idle(): Promise<void> {
    return this.roomFor(0);
  }

  #nextChange(): Promise<void> {
    return new Promise((resolve) => {
      const before = this.#changed;
      this.#changed = () => {
        before?.();
        resolve();
      };
    });
  }

  #start(): void {
    while (this.#running < this.#limit && this.#ready.length > 0) {
      const key = this.#ready.shift()!;
      const item = this.#lanes.get(key)![0]!;
      this.#running += 1;
      void this.#work(item).finally(() => this.#done(key));
    }
  }

  #done(key: string): void {
    this.#running -= 1;
    this.#held -= 1;
    const lane = this.#lanes.get(key)!;
    lane.shift();
    if (lane.length === 0) this.#lanes.delete(key);
    // The lane's next item waits behind the lanes already ready, so a long lane takes its turn.
    else this.#ready.push(key);
    this.#start();
    const changed = this.#changed;
    this.#changed = null;
    changed?.();
  }
}
