import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { SocialPublishClient } from "@socialpub/core";
import type { z } from "zod";

/** What a tool's `run` gets besides its arguments. */
export interface ToolCall {
  client: SocialPublishClient;
  /** For a write: the Idempotency-Key to send (derived from the call, or the caller's own). */
  idempotencyKey: string;
  signal: AbortSignal;
}

/**
 * One MCP tool: a name, words for a model, an input schema derived from the contract, hints for the
 * client, and one call of the typed client. Adding a tool is adding one of these to the table.
 */
export interface ToolSpec<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** What the tool does and when to use it, for a model choosing tools. */
  description: string;
  input: S;
  /** Read-only, destructive, idempotent, open-world: clients use these to ask before running a tool. */
  annotations: ToolAnnotations;
  /**
   * A write: it takes an optional `idempotency_key` argument, and sends an Idempotency-Key derived
   * from the call when none is given, so a client that retries the call never makes the change twice.
   */
  write?: {
    /** Extra state the derived key depends on besides the arguments (see edit_post). */
    keyState?: (client: SocialPublishClient, args: z.output<S>, signal: AbortSignal) => Promise<unknown>;
  };
  run(args: z.output<S>, call: ToolCall): Promise<object>;
}

/** Keeps each entry's argument types while the table holds tools of every shape. */
export function tool<S extends z.ZodObject>(spec: ToolSpec<S>): ToolSpec {
  return spec as unknown as ToolSpec;
}
