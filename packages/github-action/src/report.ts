import {
  adaptText,
  measure,
  NETWORK_RULES,
  type NetworkId,
  type Target,
  textLimitFor,
} from "@socialpub/core";
import type { Outcome, Prepared } from "./announce.ts";
import type { LeftOut } from "./platforms.ts";
import { cell, escapeText, fence } from "./summary-markdown.ts";

/** The step's outputs. Every output is set on every run, empty when it does not apply. */
export function outputsFor(outcome: Outcome): Record<string, string> {
  if (outcome.kind === "ignored") {
    return { "post-id": "", status: "skipped", platforms: "", caption: "", skipped: "", permalinks: "{}" };
  }
  const skipped = outcome.leftOut.map((item) => item.platform).join(",");
  if (outcome.kind === "dry-run") {
    return {
      "post-id": "",
      status: "dry-run",
      platforms: outcome.platforms.join(","),
      caption: outcome.caption.text,
      skipped,
      permalinks: "{}",
    };
  }
  if (outcome.kind === "direct") {
    const posted = outcome.results.filter((r) => r.status !== "failed");
    return {
      "post-id": "",
      // Published when any network holds the announcement (this run's or an earlier one's).
      status: posted.length > 0 ? "published" : "failed",
      platforms: posted.map((r) => r.platform).join(","),
      caption: outcome.caption.text,
      skipped,
      permalinks: permalinksJson(posted.map((r) => [r.platform, r.permalink])),
    };
  }
  return {
    "post-id": outcome.post.id,
    status: outcome.post.status,
    platforms: outcome.post.platforms.join(","),
    caption: outcome.caption.text,
    skipped,
    permalinks: permalinksJson((outcome.targets ?? []).map((t) => [t.platform, t.permalink])),
  };
}

/** `{"bluesky":"https://bsky.app/…",…}`: the networks that have a permalink. */
function permalinksJson(pairs: readonly (readonly [NetworkId, string | null])[]): string {
  return JSON.stringify(Object.fromEntries(pairs.filter(([, link]) => link !== null && link !== "")));
}

/** The step's outputs when the run failed before it had a post to report: status `failed`, the rest empty. */
export function outputsForFailure(): Record<string, string> {
  return { "post-id": "", status: "failed", platforms: "", caption: "", skipped: "", permalinks: "{}" };
}

/** Networks whose publishing failed, as "Name: error" lines (empty when none failed or none is known). */
export function failedTargets(outcome: Outcome): string[] {
  if (outcome.kind === "direct") {
    return outcome.results
      .filter((r) => r.status === "failed")
      .map((r) => `${NETWORK_RULES[r.platform].name}: ${r.error ?? "failed without a reason"}`);
  }
  if (outcome.kind !== "posted" || outcome.targets === null) return [];
  return outcome.targets
    .filter((t) => t.status === "failed")
    .map((t) => `${NETWORK_RULES[t.platform].name}: ${t.error ?? "failed without a reason"}`);
}

/**
 * Why the step fails although a post was made: every network failed, so nothing was announced.
 * Undefined when at least one network published (or is still to, for a scheduled post).
 */
export function everyNetworkFailed(outcome: Outcome): string | undefined {
  if (outcome.kind === "direct") {
    const failed = failedTargets(outcome);
    if (failed.length < outcome.results.length) return undefined;
    return `The release was posted nowhere: every network failed: ${failed.join("; ")}. A re-run posts where no earlier run did.`;
  }
  if (outcome.kind !== "posted" || outcome.targets === null || outcome.targets.length === 0) return undefined;
  const failed = failedTargets(outcome);
  if (failed.length < outcome.targets.length) return undefined;
  return `The post ${outcome.post.id} failed on every network: ${failed.join("; ")}`;
}

/** The job summary, in GitHub-flavoured Markdown. */
export function summaryFor(outcome: Outcome): string {
  if (outcome.kind === "ignored") {
    const title = outcome.release ? `${outcome.release.tag} not announced` : "Nothing announced";
    return `### ${escapeText(title)}\n\n${escapeText(outcome.reason)}\n`;
  }
  const { release } = outcome;
  const lines = [
    `### Release announcement: ${escapeText(`${outcome.repository} ${release.name}`)}`,
    "",
    leadFor(outcome),
    "",
  ];
  lines.push("| Network | Result | Length | Details |", "|---|---|---|---|");
  for (const row of rowsFor(outcome)) lines.push(`| ${row.map(cell).join(" | ")} |`);
  lines.push(
    "",
    `Release: ${release.url}  `,
    outcome.direct
      ? `Re-run key: \`${outcome.idempotencyKey}\` (${REPROTECTION})`
      : `Idempotency key: \`${outcome.idempotencyKey}\``,
    "",
  );
  lines.push("<details><summary>Caption</summary>", "", fence(outcome.caption.text), "", "</details>", "");
  for (const [id, own] of Object.entries(outcome.captions)) {
    const name = NETWORK_RULES[id as NetworkId].name;
    lines.push(`<details><summary>${name}'s own text</summary>`, "", fence(own.text), "", "</details>", "");
  }
  return lines.join("\n");
}

/** The summary of a run that failed: the explanation, so nobody has to dig through the log. */
export function failureSummary(message: string): string {
  return `### Release announcement failed\n\n${escapeText(message)}\n`;
}

/** What keeps a direct-mode re-run from posting twice, in one line of the summary. */
const REPROTECTION =
  "Bluesky refuses a second post under it; X is read back for what this release already has; Telegram and Discord are remembered in the Actions cache";

function leadFor(outcome: Exclude<Outcome, { kind: "ignored" }>): string {
  if (outcome.kind === "dry-run") return "**Dry run**: nothing was posted. This is what would be sent.";
  if (outcome.kind === "direct") {
    const count = (status: string) => outcome.results.filter((r) => r.status === status).length;
    const parts = [
      `posted to ${count("published")}`,
      `already posted by an earlier run on ${count("already-posted")}`,
      `failed on ${count("failed")}`,
    ];
    return `Posted directly to the networks: ${parts.join(", ")} of ${outcome.results.length}.`;
  }
  const post = `\`${outcome.post.id}\``;
  if (outcome.replayed) {
    return `An earlier run already announced this release as ${post} (status **${outcome.post.status}**); it was not posted again.`;
  }
  return outcome.post.status === "scheduled" && outcome.post.scheduled_at !== null
    ? `Scheduled ${post} for ${new Date(outcome.post.scheduled_at).toISOString()}.`
    : `Posted ${post}: status **${outcome.post.status}**.`;
}

type Row = [network: string, result: string, length: string, details: string];

function rowsFor(outcome: Exclude<Outcome, { kind: "ignored" }>): Row[] {
  const rows: Row[] = [];
  if (outcome.kind === "direct") {
    for (const result of outcome.results) {
      const text =
        result.text ??
        adaptText(
          outcome.captions[result.platform]?.text ?? outcome.caption.text,
          result.platform,
          outcome.hasMedia,
        );
      rows.push([
        NETWORK_RULES[result.platform].name,
        result.status === "already-posted"
          ? "already posted"
          : result.parts
            ? `${result.status} (${result.parts.published} of ${result.parts.total} parts)`
            : result.status,
        result.status === "already-posted" ? "" : lengthOf(text, result.platform, outcome),
        result.status === "failed" ? (result.error ?? "") : (result.permalink ?? ""),
      ]);
    }
    for (const item of outcome.leftOut) rows.push(leftOutRow(item));
    return rows;
  }
  const targets = outcome.kind === "posted" ? outcome.targets : null;
  const sentTo = outcome.kind === "posted" ? outcome.post.platforms : outcome.platforms;
  for (const id of outcome.platforms) {
    const name = NETWORK_RULES[id].name;
    if (!sentTo.includes(id)) {
      rows.push([name, "not connected", "", "the service dropped it: connect it to include it"]);
      continue;
    }
    const target = targets?.find((t) => t.platform === id);
    const own = outcome.captions[id]?.text;
    const text = target?.text ?? adaptText(own ?? outcome.caption.text, id, outcome.hasMedia);
    rows.push([name, resultFor(outcome, target), lengthOf(text, id, outcome), detailsFor(target)]);
  }
  for (const item of outcome.leftOut) rows.push(leftOutRow(item));
  return rows;
}

function resultFor(
  outcome: Exclude<Outcome, { kind: "ignored" | "direct" }>,
  target: Target | undefined,
): string {
  if (outcome.kind === "dry-run") return "would post";
  if (!target) return outcome.post.status;
  if (target.status === "pending") return outcome.post.status === "scheduled" ? "scheduled" : "pending";
  // A thread: how many of its parts the network took.
  const parts = target.parts ?? [];
  if (parts.length <= 1) return target.status;
  const published = parts.filter((part) => part.status === "published").length;
  return `${target.status} (${published} of ${parts.length} parts)`;
}

function detailsFor(target: Target | undefined): string {
  if (!target) return "";
  if (target.status === "failed") return target.error ?? "";
  return target.permalink ?? "";
}

function lengthOf(text: string, id: NetworkId, outcome: Prepared): string {
  return `${measure(text, NETWORK_RULES[id].lengthUnit)} / ${textLimitFor(id, outcome.hasMedia)}`;
}

function leftOutRow(item: LeftOut): Row {
  const name = NETWORK_RULES[item.platform].name;
  if (item.reason === "needs-media")
    return [name, "left out", "", "needs media: set the `media` input to include it"];
  if (item.reason === "needs-video")
    return [name, "left out", "", "needs a video: set the `media` input to a video to include it"];
  if (item.reason === "too-much-media")
    return [name, "left out", "", "cannot carry that many media items: list fewer to include it"];
  if (item.reason === "no-credentials")
    return [name, "left out", "", "no credentials among the inputs: set them to include it"];
  return [name, "left out", "", "not connected to the account: connect it in the service to include it"];
}
