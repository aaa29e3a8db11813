import type { PublishInput, PublishStep } from "@socialpub/core";

/**
 * A post whose publish steps are kept as the service keeps them on the target: `saved` holds every step
 * the adapter saved, in order, and `resumed()` is the same post as the next attempt gets it (the last
 * step saved), its later saves kept in the same list.
 */
export function withSteps(post: PublishInput, step: PublishStep | null = null) {
  const saved: PublishStep[] = [];
  const make = (from: PublishStep | null): PublishInput => ({
    ...post,
    step: from,
    saveStep: async (next) => {
      saved.push(next);
    },
  });
  return {
    post: make(step),
    saved,
    /** The last step saved, or null. */
    get last(): PublishStep | null {
      return saved.at(-1) ?? null;
    },
    /** The post as a retry or a restart gets it: from the last step saved, with a fresh signal. */
    resumed(signal = AbortSignal.timeout(15_000)): PublishInput {
      return { ...make(saved.at(-1) ?? null), signal };
    },
  };
}
