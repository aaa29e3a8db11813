#!/usr/bin/env -S node --max-semi-space-size=4 --max-old-space-size=1024 --no-allocation-site-pretenuring
import { describeFailure } from "./cli/errors.ts";
import { buildProgram } from "./cli/program.ts";

// Any failure is one line and a non-zero exit; flag errors are already reported that way by commander.
buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`error: ${describeFailure(error)}\n`);
    process.exit((error as { exitCode?: number }).exitCode ?? 1);
  });
