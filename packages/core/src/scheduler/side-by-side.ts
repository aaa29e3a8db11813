/**
 * Runs `work` on every item, at most `limit` at once, items that share a lane one after the other in
 * the order given. Answers when every item is done; `work` must not throw (the scheduler catches per
 * post).
 */
export async function sideBySide<T>(
  items: readonly T[],
  limit: number,
  laneOf: (item: T) => string,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const lanes = new Map<string, T[]>();
  for (const item of items) {
    const key = laneOf(item);
    const lane = lanes.get(key);
    if (lane) lane.push(item);
    else lanes.set(key, [item]);
  }
  const waiting = [...lanes.values()];
  let next = 0;
  const runner = async () => {
    while (next < waiting.length) {
      const lane = waiting[next++]!;
      for (const item of lane) await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, waiting.length)) }, runner));
}
