import { createHash, randomUUID } from "node:crypto";
import type { IExecuteFunctions, INodeProperties } from "n8n-workflow";
import { NodeOperationError } from "n8n-workflow";

// Stored in the node's execution context. n8n copies an execution's context into the execution that
// retries it, so the first run's seed stays the seed across "Retry" and the keys repeat exactly.
const SEED_KEY = "socialPublishIdempotencySeed";

const MAX_KEY_LENGTH = 255;

/**
 * The default Idempotency-Key of a write: the same for the same item of the same node run of the same
 * execution — including when n8n retries the node (Retry On Fail) or the whole failed execution — and
 * different for every new execution. The service replays the stored answer for a repeated key, so a
 * retry never creates a second post. Hashed: the key stays short and reveals nothing about the instance.
 *
 * The seed is the execution's id and 122 random bits, drawn on the node's first run in the execution.
 * n8n's instance id is a hash of the encryption key and execution ids count from 1 in every database,
 * so two databases sharing the key (staging and production, a restored backup) would otherwise derive
 * the same keys for the same workflow and the service would replay one's answers to the other.
 */
export function defaultIdempotencyKey(this: IExecuteFunctions, itemIndex: number, operation: string): string {
  const context = this.getContext("node");
  if (typeof context[SEED_KEY] !== "string") context[SEED_KEY] = `${this.getExecutionId()}:${randomUUID()}`;
  const seed = context[SEED_KEY] as string;
  const runIndex = this.getWorkflowDataProxy(itemIndex).$thisRunIndex ?? 0;
  const parts = [
    this.getInstanceId(),
    this.getWorkflow().id ?? "",
    seed,
    this.getNode().id,
    operation,
    String(runIndex),
    String(itemIndex),
  ];
  const digest = createHash("sha256").update(parts.join("\u0000")).digest("hex");
  return `n8n-${digest.slice(0, 40)}`;
}

/** A user-supplied key as the service accepts it (1–255 printable ASCII characters), or an error text. */
export function checkIdempotencyKey(key: string): string | undefined {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) return "must be 1 to 255 characters long";
  if (!/^[\x20-\x7e]+$/.test(key)) return "may only contain printable ASCII characters";
  return undefined;
}

/**
 * The key of a request made for another one — the media upload before a post — as `<key>-<suffix>`.
 * When that would pass 255 characters, the key is shortened and a hash of the whole key put in its
 * place: cutting the end off instead would give back the key itself (a 255-character key ending in
 * `-media`) or the same key for two keys that differ only at the end, and the service answers a
 * reused key for a different request with 422.
 */
export function derivedIdempotencyKey(key: string, suffix: string): string {
  const plain = `${key}-${suffix}`;
  if (plain.length <= MAX_KEY_LENGTH) return plain;
  const digest = createHash("sha256").update(key).digest("hex").slice(0, 40);
  const kept = key.slice(0, MAX_KEY_LENGTH - digest.length - suffix.length - 2);
  return `${kept}~${digest}-${suffix}`;
}

/** The Idempotency Key option of the writes that offer it. */
export const idempotencyKeyOption: INodeProperties = {
  displayName: "Idempotency Key",
  name: "idempotencyKey",
  type: "string",
  default: "",
  description:
    "Sent as the Idempotency-Key header. Leave empty to use a key derived from the execution and the item, so retrying the node or the execution never makes the change twice. Set your own (1–255 printable characters, such as release- and a feed entry's guid) to make it once across executions.",
};

/** The key a write sends: the option's value when given (checked before any request), else the default. */
export function readIdempotencyKey(
  this: IExecuteFunctions,
  itemIndex: number,
  operation: string,
  given: unknown,
): string {
  const key = typeof given === "string" ? given.trim() : "";
  if (key === "") return defaultIdempotencyKey.call(this, itemIndex, operation);
  const problem = checkIdempotencyKey(key);
  if (problem) {
    throw new NodeOperationError(this.getNode(), `Idempotency Key ${problem}`, { itemIndex });
  }
  return key;
}
