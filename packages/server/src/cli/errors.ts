/** A failure the user can fix; the CLI prints its message on one line and exits non-zero. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

/** The one line printed for any failure: the message, without a stack trace. */
export function describeFailure(error: unknown): string {
  if (error instanceof Error) return error.message.split("\n")[0]!;
  return String(error);
}
