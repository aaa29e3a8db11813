import { NETWORK_RULES, type NetworkId } from "../../../src/contract/networks.ts";
import {
  type AccountSession,
  type ConnectedAccount,
  type NetworkAdapter,
  NetworkError,
  type PacingRule,
  type PublishedPost,
  type PublishInput,
} from "../../../src/networks/adapter.ts";
import type { TargetMetrics } from "../../../src/store/types.ts";
import type { Clock } from "../../../src/time/clock.ts";

/** What one publish call does: answer with a post, or throw a classified failure. */
export type Step = "ok" | NetworkError | ((post: PublishInput) => Promise<PublishedPost>);

/**
 * A network the test scripts: the real NetworkAdapter interface, whose publish answers come from a
 * queue the test fills (a post, a 429 with retry_after, a revoked grant, no answer), and which records
 * every call with the clock's time. Nothing inside the service is replaced: the service publishes
 * through it exactly as through the Bluesky, Telegram and Discord adapters.
 */
export class ScriptedAdapter implements NetworkAdapter {
  readonly id: NetworkId;
  readonly rule;
  readonly pacing: readonly PacingRule[];
  readonly maxMediaBytes: number;
  /** Answers of the next publish calls, first first; once empty, every publish succeeds. */
  readonly script: Step[] = [];
  /** Every publish call, with when it was made. */
  readonly publishes: { at: number; post: PublishInput; credentials: AccountSession["credentials"] }[] = [];
  /** Posts findPublished reports, by key; and every key it was asked about. */
  readonly found = new Map<string, PublishedPost>();
  readonly finds: { at: number; key: string }[] = [];
  /** What readMetrics answers next, and when it was called. */
  figures: Partial<TargetMetrics> = {};
  readonly metricReads: { at: number; id: string }[] = [];
  private readonly clock: Clock;

  constructor(
    id: NetworkId,
    clock: Clock,
    options: { pacing?: PacingRule[]; maxMediaBytes?: number; withFind?: boolean } = {},
  ) {
    this.id = id;
    this.rule = NETWORK_RULES[id];
    this.clock = clock;
    this.pacing = options.pacing ?? [];
    this.maxMediaBytes = options.maxMediaBytes ?? 5_000_000;
    if (options.withFind === false) this.findPublished = undefined;
  }

  async connect(fields: Readonly<Record<string, unknown>>): Promise<ConnectedAccount> {
    const token = String(fields.bot_token ?? fields.app_password ?? "");
    if (token === "refuse-me") throw new NetworkError(this.id, "refused", `${this.rule.name}: bad token`);
    return {
      handle: `@${this.id}_account`,
      followers: 7,
      health: "healthy",
      credentials: { token },
    };
  }

  async publish(account: AccountSession, post: PublishInput): Promise<PublishedPost> {
    this.publishes.push({ at: this.clock.now(), post, credentials: account.credentials });
    const step = this.script.shift() ?? "ok";
    if (step === "ok") {
      // As a network does: the post is there to be found afterwards.
      this.found.set(post.key, this.posted(post.key));
      return this.posted(post.key);
    }
    if (step instanceof NetworkError) throw step;
    return step(post);
  }

  findPublished?: NetworkAdapter["findPublished"] = async (_account, { key }) => {
    this.finds.push({ at: this.clock.now(), key });
    return this.found.get(key) ?? null;
  };

  async readMetrics(_account: AccountSession, post: PublishedPost): Promise<Partial<TargetMetrics>> {
    this.metricReads.push({ at: this.clock.now(), id: post.id });
    return this.figures;
  }

  posted(key: string): PublishedPost {
    return { id: key, permalink: `https://example.test/${this.id}/${key}` };
  }

  /** A failure of `kind`, as the adapter would classify one. */
  failure(kind: NetworkError["kind"], message: string, retryAfterMs?: number): NetworkError {
    return new NetworkError(this.id, kind, `${this.rule.name}: ${message}`, {
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    });
  }
}
