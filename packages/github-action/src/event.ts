import { InputError } from "./input-error.ts";
import { type Release, releaseFromGitHub } from "./release.ts";
import type { RunContext } from "./run-context.ts";

/** What the triggering event asks for. */
export type EventPlan =
  | { kind: "announce"; release: Release }
  /** Announce the existing release of this tag, looked up through GitHub's API. */
  | { kind: "lookup"; tag: string }
  | { kind: "ignore"; reason: string };

const TAG_REF = "refs/tags/";

/**
 * Which release the event is about, if any. A release event announces on `published` only (GitHub also
 * sends `created`, `released`, `prereleased`… for the same release: reacting to more than one would post
 * twice). `workflow_dispatch` and a tag push announce the release of the `tag` input, a tag push
 * defaulting to the pushed tag. Every other event is ignored with a reason.
 */
export function planFromEvent(context: RunContext, tag: string | undefined): EventPlan {
  const { eventName, payload } = context;
  if (eventName === "release") {
    const action = typeof payload.action === "string" ? payload.action : "(none)";
    if (action !== "published") {
      return {
        kind: "ignore",
        reason: `This release event's action is "${action}"; releases are announced when published. Trigger the workflow with \`on: release: types: [published]\`.`,
      };
    }
    return { kind: "announce", release: releaseFromGitHub(payload.release) };
  }
  if (eventName === "workflow_dispatch") {
    if (tag === undefined) {
      throw new InputError(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JavaScript placeholder
        "A workflow_dispatch run needs the `tag` input to know which release to announce, e.g. `tag: ${{ inputs.tag }}`.",
      );
    }
    return { kind: "lookup", tag };
  }
  if (eventName === "push") {
    if (tag !== undefined) return { kind: "lookup", tag };
    if (context.ref.startsWith(TAG_REF)) return { kind: "lookup", tag: context.ref.slice(TAG_REF.length) };
    return {
      kind: "ignore",
      reason: `This push is to ${context.ref || "a branch"}, not a tag; nothing to announce. Run the workflow on tag pushes (\`on: push: tags: ["v*"]\`) or on \`release: types: [published]\`.`,
    };
  }
  return {
    kind: "ignore",
    reason: `The ${eventName || "unknown"} event has no release to announce. Run this action on \`release: types: [published]\`, on a tag push, or from workflow_dispatch with the \`tag\` input.`,
  };
}
