import { createServer } from "node:net";
import { CliError, describeFailure } from "./errors.ts";

/**
 * The one-line reason a server cannot listen on host:port. `npm start` is how most people start one,
 * so the way to pick another port is said in both forms.
 */
export function listenFailure(host: string, port: number, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${host}:${port}`;
  if (code === "EADDRINUSE")
    return new CliError(
      `cannot listen on ${where}: port ${port} is in use (another server?); pick another with --port N (npm start -- --port N).`,
    );
  if (code === "EACCES")
    return new CliError(`cannot listen on ${where}: permission denied; pick a port above 1023.`);
  return new CliError(`cannot listen on ${where}: ${describeFailure(error)}`);
}

/**
 * Fails when host:port cannot be listened on, before `start` creates a database or a dev user and
 * prints a key that would then belong to a server that never ran. Port 0 always works. Another process
 * may still take the port between this check and the real listen; that rare case fails there, as before.
 */
export async function assertCanListen(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", (error) => reject(listenFailure(host, port, error)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
