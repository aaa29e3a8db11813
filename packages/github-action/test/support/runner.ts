import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { withProcessSlot } from "../../../../test-support/process-slots.ts";

const packageDir = fileURLToPath(new URL("../../", import.meta.url));

/** The committed bundle, exactly the file a runner executes. */
export const DIST_ENTRY = join(packageDir, "dist", "index.js");

interface ActionInput {
  default?: string;
}

/**
 * Inputs as the runner sets them: every input of action.yml with a default gets INPUT_<NAME> (the name
 * upper-cased, hyphens kept), then the workflow's `with:` values on top. Defaults that are expressions
 * (`${{ github.token }}`) are evaluated by the runner; here they are left out unless given.
 */
function inputEnvironment(given: Record<string, string>): Record<string, string> {
  const metadata = parse(readFileSync(join(packageDir, "action.yml"), "utf8")) as {
    inputs: Record<string, ActionInput>;
  };
  const env: Record<string, string> = {};
  for (const [name, input] of Object.entries(metadata.inputs)) {
    if (input.default !== undefined && !input.default.includes("${{")) {
      env[`INPUT_${name.toUpperCase()}`] = input.default;
    }
  }
  for (const [name, value] of Object.entries(given)) env[`INPUT_${name.toUpperCase()}`] = value;
  return env;
}

export interface StepRun {
  /** Exit code: 0 success, 1 when the step failed. */
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

export interface StepOptions {
  inputs: Record<string, string>;
  eventName: string;
  /** The webhook payload written to GITHUB_EVENT_PATH. */
  payload?: unknown;
  /** The file at GITHUB_EVENT_PATH as it is, instead of `payload` as JSON. */
  rawPayload?: string;
  ref?: string;
  repository?: string;
  /** GITHUB_API_URL, for a stand-in GitHub API. */
  apiUrl?: string;
  /** More environment, as a workflow's `env:` sets it (never inputs). */
  env?: Record<string, string>;
}

/**
 * Runs `node dist/index.js` the way a runner does for a `uses:` step, and collects what it reported. The
 * step holds one of the suite's process slots for its whole run, so a busy machine is not overloaded.
 */
export function runStep(options: StepOptions): Promise<StepRun> {
  return withProcessSlot(() => runStepNow(options));
}

function runStepNow(options: StepOptions): Promise<StepRun> {
  const dir = mkdtempSync(join(tmpdir(), "action-step-"));
  const eventPath = join(dir, "event.json");
  const outputPath = join(dir, "output");
  const summaryPath = join(dir, "summary.md");
  writeFileSync(eventPath, options.rawPayload ?? JSON.stringify(options.payload ?? {}));
  writeFileSync(outputPath, "");
  writeFileSync(summaryPath, "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    GITHUB_ACTIONS: "true",
    CI: "true",
    GITHUB_EVENT_NAME: options.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_REPOSITORY: options.repository ?? "octo/app",
    GITHUB_REF: options.ref ?? "",
    GITHUB_API_URL: options.apiUrl ?? "http://127.0.0.1:9",
    RUNNER_TEMP: dir,
    ...options.env,
    ...inputEnvironment(options.inputs),
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [DIST_ENTRY], { env, cwd: dir, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({
        code,
        stdout,
        stderr,
        outputs: parseOutputFile(readFileSync(outputPath, "utf8")),
        summary: readFileSync(summaryPath, "utf8"),
      });
    });
  });
}

/** GITHUB_OUTPUT's format: `name<<DELIMITER`, the value's lines, then `DELIMITER`. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (match) {
      const [, name, delimiter] = match;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]!);
      outputs[name!] = value.join("\n");
    } else if (lines[i]!.includes("=")) {
      const at = lines[i]!.indexOf("=");
      outputs[lines[i]!.slice(0, at)] = lines[i]!.slice(at + 1);
    }
  }
  return outputs;
}
