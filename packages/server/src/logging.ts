import { type DestinationStream, type LevelWithSilent, type Logger, pino } from "pino";
import { turnBatchedStandardOutput } from "./log-destination.ts";

export type { Logger } from "pino";

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number] & LevelWithSilent;

/**
 * Anything that could carry a credential, wherever it appears in a log object. Request lines are built
 * from an allow-list of fields (see `RequestLogFields`) and skip this pass; for every other line it is the second line of defence.
 */
const REDACT_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "apiKey",
  "*.apiKey",
  "key",
  "*.key",
  "secret",
  "*.secret",
  "token",
  "*.token",
  "password",
  "*.password",
];

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; standard output by default. Tests pass a stream to read them back. */
  destination?: DestinationStream;
}

/** Structured JSON logs, one object a line. */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      base: { service: "socialpub-server" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    options.destination ?? turnBatchedStandardOutput(),
  );
}

/** What one request line holds. No headers, no query string, no body: none can leak a key. */
export interface RequestLogFields {
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
}
