import * as core from "@actions/core";
import { NETWORK_RULES } from "@socialpub/core";
import { announce, type Log, type Outcome } from "./announce.ts";
import { DIRECT_SECRET_INPUTS } from "./direct/credentials.ts";
import { noLedger } from "./direct/ledger.ts";
import { explainFailure, type FailureContext } from "./explain.ts";
import { fetchReleaseByTag } from "./github-release.ts";
import { readInputs } from "./inputs.ts";
import type { Publisher } from "./publisher.ts";
import {
  everyNetworkFailed,
  failedTargets,
  failureSummary,
  outputsFor,
  outputsForFailure,
  summaryFor,
} from "./report.ts";
import { readRunContext } from "./run-context.ts";

const log: Log = {
  info: (message) => core.info(message),
  warning: (message) => core.warning(message),
};

/** The action's entry point: announce, then report through outputs and the job summary. */
export async function run(): Promise<void> {
  // Masked before anything else runs, so no later log line, error or output can show them.
  for (const name of ["api-key", "github-token", ...DIRECT_SECRET_INPUTS]) {
    const secret = core.getInput(name);
    if (secret) core.setSecret(secret);
  }
  const failure: FailureContext = {};
  let publisher: Publisher | undefined;
  try {
    const inputs = readInputs((name) => core.getInput(name, { trimWhitespace: false }));
    const context = readRunContext(process.env);
    if (inputs.direct) {
      failure.direct = true;
      // Loaded only for a run in direct mode, as the service's client only for one with a service: the
      // in-job service, the networks' adapters and the Actions cache are most of the bundle.
      const [{ actionsCacheLedger }, { createDirectPublisher }] = await Promise.all([
        import("./direct/cache-ledger.ts"),
        import("./direct/publisher.ts"),
      ]);
      const cached = actionsCacheLedger(process.env, log);
      publisher = createDirectPublisher(inputs.direct, { env: process.env, ledger: cached ?? noLedger, log });
    } else {
      failure.baseUrl = inputs.baseUrl;
      const { createPublisher } = await import("./publisher.ts");
      publisher = createPublisher(inputs.apiKey, inputs.baseUrl);
    }
    const outcome = await announce({
      inputs,
      context,
      publisher,
      lookupRelease: (tag) =>
        fetchReleaseByTag({
          token: inputs.githubToken,
          apiUrl: context.apiUrl,
          repository: context.repository,
          tag,
        }),
      log,
      failure,
    });
    report(outcome);
    await writeSummary(summaryFor(outcome));
  } catch (error) {
    const message = explainFailure(error, failure);
    // Every output on every run, so a later step's `if:` can read them after a failure too.
    for (const [name, value] of Object.entries(outputsForFailure())) core.setOutput(name, value);
    await writeSummary(failureSummary(message));
    core.setFailed(message);
  } finally {
    await publisher?.close();
  }
}

function report(outcome: Outcome): void {
  for (const [name, value] of Object.entries(outputsFor(outcome))) core.setOutput(name, value);
  if (outcome.kind === "ignored") {
    core.notice(outcome.reason);
    return;
  }
  if (outcome.kind === "dry-run") {
    core.info(`Dry run: nothing was posted. The caption would be:\n${outcome.caption.text}`);
    return;
  }
  if (outcome.kind === "direct") {
    for (const result of outcome.results) {
      const name = NETWORK_RULES[result.platform].name;
      if (result.status === "published") core.info(`${name}: posted, ${result.permalink}`);
      if (result.status === "already-posted")
        core.info(`${name}: already posted by an earlier run (${result.permalink}); not posted again.`);
    }
  } else {
    const { post } = outcome;
    core.info(
      outcome.replayed
        ? `An earlier run already announced this release as ${post.id}; it was not posted again.`
        : `Posted ${post.id} (${post.status}) to ${post.platforms.join(", ")}.`,
    );
  }
  const failure = everyNetworkFailed(outcome);
  if (failure) core.setFailed(failure);
  else for (const line of failedTargets(outcome)) core.warning(failedLine(outcome, line));
}

function failedLine(outcome: Outcome, line: string): string {
  return outcome.kind === "posted"
    ? `The post ${outcome.post.id} failed on ${line}`
    : `Failed on ${line}. A re-run posts there, and only there.`;
}

/** Appends to the job summary; outside a runner (no GITHUB_STEP_SUMMARY) there is none to write. */
async function writeSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  try {
    await core.summary.addRaw(markdown, true).write();
  } catch (error) {
    core.warning(`Could not write the job summary: ${(error as Error).message}`);
  }
}
