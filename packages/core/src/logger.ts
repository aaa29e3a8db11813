/**
 * The logging the service needs, in pino's call shape (`logger.error({ err }, "message")`), so a pino
 * logger can be passed as is. Nothing logged ever carries an API key or a webhook secret.
 */
export interface Logger {
  error(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

const line = (level: string) => (fields: Record<string, unknown>, message: string) => {
  const err =
    fields.err instanceof Error ? { message: fields.err.message, stack: fields.err.stack } : fields.err;
  console.error(JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...fields, err }));
};

/** JSON lines on stderr: what the service uses when given no logger. */
export const consoleLogger: Logger = { error: line("error"), warn: line("warn"), info: line("info") };

export const silentLogger: Logger = { error: () => {}, warn: () => {}, info: () => {} };
