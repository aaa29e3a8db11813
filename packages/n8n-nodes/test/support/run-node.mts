import type { INodeExecutionData } from "n8n-workflow";
import { SocialPublish } from "../../nodes/SocialPublish/SocialPublish.node.ts";
import { type ExecuteHarness, type ExecuteOptions, executeContext } from "./n8n-context.mts";

export interface NodeRun extends ExecuteHarness {
  output: INodeExecutionData[];
}

/** Runs the Social Publish node's execute() once, as n8n would for one node run. */
export async function runSocialPublish(options: ExecuteOptions): Promise<NodeRun> {
  const harness = executeContext(options);
  const [output] = await new SocialPublish().execute.call(harness.context);
  return { ...harness, output: output ?? [] };
}

/** Runs it expecting an error, and returns that error. */
export async function failSocialPublish(options: ExecuteOptions): Promise<Error & Record<string, unknown>> {
  try {
    await runSocialPublish(options);
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected the node to fail, but it succeeded");
}
