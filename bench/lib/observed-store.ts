import type { PostRecord, Store } from "../../packages/core/src/index.ts";

const nowPrecise = () => performance.timeOrigin + performance.now();

/** The store, recording when each post becomes published (the moment its transition commits). */
export function observed(store: Store): { store: Store; publishedAt: Map<string, number> } {
  const publishedAt = new Map<string, number>();
  const wrapped: Store = Object.create(store);
  const seen = (result: PostRecord | null) => {
    if (result?.status === "published" && !publishedAt.has(result.id))
      publishedAt.set(result.id, nowPrecise());
    return result;
  };
  // A post turns published when its networks' outcomes are written (finishTargets); a post whose
  // publishing is moved by hand goes through transitionPost.
  wrapped.finishTargets = async (...args: Parameters<Store["finishTargets"]>) =>
    seen(await store.finishTargets(...args));
  wrapped.transitionPost = async (...args: Parameters<Store["transitionPost"]>) =>
    seen(await store.transitionPost(...args));
  return { store: wrapped, publishedAt };
}

/** Resolves true once `condition` holds, false when `timeoutMs` passes first (checked every 5 ms). */
export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}
