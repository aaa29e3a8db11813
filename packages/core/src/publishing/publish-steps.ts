import { NetworkError, type PublishStep } from "../networks/adapter.ts";
import type { ServiceDeps } from "../service/context.ts";
import type { TargetRecord } from "../store/types.ts";

/**
 * The progress of one attempt's publish in several steps (Instagram's and Threads' media containers,
 * and later TikTok's and YouTube's uploads), kept on the target in the store as the adapter saves it.
 * It is written before the adapter goes on, so a crash between two steps leaves the store knowing
 * the container: the next attempt hands it back to the adapter, which resumes instead of starting
 * over and cannot publish twice.
 */
export class PublishSteps {
  /** The step as stored now (JSON text), or null. */
  saved: string | null;
  readonly #deps: ServiceDeps;
  readonly #target: TargetRecord;

  constructor(deps: ServiceDeps, target: TargetRecord) {
    this.#deps = deps;
    this.#target = target;
    this.saved = target.publish_step;
  }

  /** The step an earlier attempt saved, as the adapter gave it; null when none was, or it is unreadable. */
  current(): PublishStep | null {
    if (this.saved === null) return null;
    try {
      const step = JSON.parse(this.saved) as unknown;
      return step !== null && typeof step === "object" && !Array.isArray(step) ? (step as PublishStep) : null;
    } catch {
      return null;
    }
  }

  /**
   * Stores the step on the target while this attempt holds it. When the attempt no longer does (it was
   * released as interrupted and taken over), nothing is written and the adapter is told to stop.
   */
  async save(step: PublishStep, networkName: string): Promise<void> {
    const text = JSON.stringify(step);
    const { post_id, platform, attempts } = this.#target;
    const stored = await this.#deps.store.saveTargetStep(post_id, platform, attempts, text);
    if (!stored) {
      throw new NetworkError(
        platform,
        "retry",
        `${networkName}: this attempt was taken over before its progress could be saved; the next attempt goes on from where it stood.`,
      );
    }
    this.saved = text;
  }
}
