import type { PublishInput, PublishStep } from "@socialpub/core";

/**
 * A post whose steps are kept as the service keeps them on the target: each `saveStep` replaces the
 * saved step, and `again()` is the next attempt of the same post, resuming from what was saved.
 */
export function stepped(post: PublishInput): {
  post: PublishInput;
  readonly saved: PublishStep | null;
  again(signal?: AbortSignal): PublishInput;
} {
  let saved: PublishStep | null = post.step;
  const attempt = (step: PublishStep | null, signal: AbortSignal): PublishInput => ({
    ...post,
    signal,
    step,
    saveStep: async (next) => {
      saved = next;
    },
  });
  return {
    post: attempt(saved, post.signal),
    get saved() {
      return saved;
    },
    again: (signal = AbortSignal.timeout(15_000)) => attempt(saved, signal),
  };
}
