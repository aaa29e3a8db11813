import { readFileSync } from "node:fs";
import { withoutTrailingSlashes } from "./linear-text.ts";

/** What the runner tells a step about the run, read from its environment. */
export interface RunContext {
  /** GITHUB_EVENT_NAME: release, workflow_dispatch, push, … */
  eventName: string;
  /** The webhook payload from GITHUB_EVENT_PATH; {} when there is none. */
  payload: Record<string, unknown>;
  /** GITHUB_REF, e.g. refs/tags/v1.2.3. */
  ref: string;
  /** owner/name of the repository the workflow runs in. */
  repository: string;
  /** GitHub's REST API (GITHUB_API_URL; differs on GitHub Enterprise Server). */
  apiUrl: string;
}

export function readRunContext(env: NodeJS.ProcessEnv): RunContext {
  const payload = readPayload(env.GITHUB_EVENT_PATH);
  const fromPayload = (payload.repository as { full_name?: unknown } | undefined)?.full_name;
  return {
    eventName: env.GITHUB_EVENT_NAME ?? "",
    payload,
    ref: env.GITHUB_REF ?? "",
    repository: env.GITHUB_REPOSITORY || (typeof fromPayload === "string" ? fromPayload : ""),
    apiUrl: withoutTrailingSlashes(env.GITHUB_API_URL || "https://api.github.com"),
  };
}

function readPayload(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(
      `Could not read the event payload at GITHUB_EVENT_PATH (${path}): ${(error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `The event payload at GITHUB_EVENT_PATH (${path}) is not valid JSON (${(error as Error).message}). On a runner GitHub writes this file; when running the Action by hand, point GITHUB_EVENT_PATH at a webhook payload such as a release event's.`,
    );
  }
  return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
}
